// Workflows: templates run in a tree. Each entry names a template (a file or a folder) or tags; its
// `matchers` run their `subtemplates` when the template reported those matcher names (`condition: and`
// needs all of them), and plain `subtemplates` run when the template reported anything. Every template
// run reports its own results under its own id, as nuclei does. Where templates come from is the
// caller's business (files for `vigil scan`, the catalogue for the platform): `WorkflowSource`.
import type { Template } from '../template/types.ts';
import type { ResultEvent } from '../output/types.ts';

export interface WorkflowRef {
  template?: string;
  tags?: string[];
}

export type WorkflowSource = (ref: WorkflowRef, workflow: Template) => Promise<Template[]>;

interface Entry {
  template?: string;
  tags?: string | string[];
  matchers?: { name?: string | string[]; condition?: 'and' | 'or'; subtemplates?: Entry[] }[];
  subtemplates?: Entry[];
}

const asList = (v: string | string[] | undefined) =>
  (Array.isArray(v) ? v : v === undefined ? [] : String(v).split(',')).map((s) => s.trim()).filter(Boolean);

/** Runs one template on the target; resolves with the events it reported (already emitted). */
export type RunOne = (t: Template, target: string | undefined) => Promise<ResultEvent[]>;

export async function runWorkflow(
  workflow: Template,
  target: string | undefined,
  source: WorkflowSource,
  runOne: RunOne,
): Promise<{ matched: boolean; templates: number }> {
  let matched = false;
  let templates = 0;
  const walk = async (entries: Entry[], depth: number): Promise<void> => {
    if (depth > 10) return; // a tree, never a loop
    for (const entry of entries) {
      const list = await source(
        { template: entry.template, tags: entry.tags === undefined ? undefined : asList(entry.tags) },
        workflow,
      );
      for (const t of list) {
        if (t.workflows?.length) continue; // workflows do not nest
        templates++;
        const events = await runOne(t, target);
        const reported = events.filter((e) => e['matcher-status'] !== false);
        if (reported.length) matched = true;
        const names = new Set(reported.map((e) => e['matcher-name']).filter((n): n is string => typeof n === 'string'));
        if (entry.matchers?.length) {
          for (const m of entry.matchers) {
            const want = asList(m.name);
            const ok =
              want.length > 0 &&
              (m.condition === 'and' ? want.every((n) => names.has(n)) : want.some((n) => names.has(n)));
            if (ok && m.subtemplates?.length) await walk(m.subtemplates, depth + 1);
          }
        } else if (entry.subtemplates?.length && reported.length) {
          await walk(entry.subtemplates, depth + 1);
        }
      }
    }
  };
  await walk((workflow.workflows ?? []) as Entry[], 0);
  return { matched, templates };
}
