// Workflow templates from a list already in memory (the platform loads them from its catalogue before a
// chunk runs): `template:` matches a template's path (a catalogue uri) or a folder of them, `tags:` the
// templates having any of the tags.
import type { Template } from '../template/types.ts';
import type { WorkflowRef, WorkflowSource } from './run.ts';

export function memoryWorkflowSource(templates: Template[]): WorkflowSource {
  return async (ref: WorkflowRef) => {
    if (ref.template) {
      const p = ref.template.replace(/^\.\//, '').replace(/\/+$/, '');
      return templates.filter((t) => t.path === p || t.path.startsWith(`${p}/`));
    }
    if (ref.tags?.length) {
      const want = new Set(ref.tags.map((x) => x.toLowerCase()));
      return templates.filter((t) => t.info.tags.some((tag) => want.has(tag.toLowerCase())));
    }
    return [];
  };
}

/** Every template path and tag a workflow names, at any depth. */
export function workflowRefs(workflows: unknown[]): { paths: string[]; tags: string[] } {
  const paths = new Set<string>();
  const tags = new Set<string>();
  const walk = (entries: unknown, depth: number) => {
    if (!Array.isArray(entries) || depth > 10) return;
    for (const e of entries as Record<string, unknown>[]) {
      if (!e || typeof e !== 'object') continue;
      if (typeof e.template === 'string') paths.add(e.template.replace(/^\.\//, '').replace(/\/+$/, ''));
      const tg = e.tags;
      for (const t of Array.isArray(tg) ? tg : typeof tg === 'string' ? tg.split(',') : [])
        if (String(t).trim()) tags.add(String(t).trim());
      walk(e.subtemplates, depth + 1);
      if (Array.isArray(e.matchers))
        for (const m of e.matchers as Record<string, unknown>[]) walk(m?.subtemplates, depth + 1);
    }
  };
  walk(workflows, 0);
  return { paths: [...paths], tags: [...tags] };
}
