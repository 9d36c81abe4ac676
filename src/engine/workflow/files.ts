// Workflow templates from disk, for `vigil scan`: a `template:` path is looked up from the workflow's
// folder upwards (workflows/x.yaml names http/y.yaml from the templates root), never outside that tree;
// `tags:` select among every template of the templates root (the first folder above the workflow that
// holds an `http` folder), loaded once.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { compileTemplate, loadTemplates } from '../template/index.ts';
import type { Template } from '../template/types.ts';
import type { WorkflowSource } from './run.ts';

function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    out.push(d);
    if (path.dirname(d) === d) return out;
  }
}

export function fileWorkflowSource(): WorkflowSource {
  const byPath = new Map<string, Promise<Template[]>>();
  const byRoot = new Map<string, Promise<Template[]>>();
  const load = (p: string) => {
    let hit = byPath.get(p);
    if (!hit) byPath.set(p, (hit = loadTemplates([p]).then((r) => r.templates)));
    return hit;
  };
  return async (ref, wf) => {
    if (!wf.path) return [];
    const dirs = ancestors(path.dirname(wf.path));
    if (ref.template) {
      const rel = ref.template.replace(/\\/g, '/');
      if (path.isAbsolute(rel) || rel.split('/').includes('..')) return [];
      for (const d of dirs) {
        const p = path.join(d, rel);
        if (existsSync(p)) return load(p);
      }
      return [];
    }
    if (ref.tags?.length) {
      const root =
        dirs.find((d) => existsSync(path.join(d, 'http')) && statSync(path.join(d, 'http')).isDirectory()) ??
        dirs[1] ??
        dirs[0]!;
      let all = byRoot.get(root);
      // Metadata only: the templates a tag selects compile when the workflow runs them.
      if (!all) byRoot.set(root, (all = loadTemplates([root], {}, { lazy: true }).then((r) => r.templates)));
      const want = new Set(ref.tags.map((t) => t.toLowerCase()));
      return (await all).filter(
        (t) =>
          t.type !== 'workflow' &&
          t.info.tags.some((tag) => want.has(tag.toLowerCase())) &&
          compileTemplate(t).issues.length === 0 &&
          !t.workflows?.length,
      );
    }
    return [];
  };
}
