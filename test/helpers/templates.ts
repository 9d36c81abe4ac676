// Templates for engine tests: inline text, or a file of the corpus read as `vigil scan` reads it; and a
// scan that collects its result events.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import path from 'node:path';
import { parseTemplate } from '../../src/engine/template/parse.ts';
import { runScan, type ScanOptions } from '../../src/engine/runner.ts';
import type { ResultEvent } from '../../src/engine/output/types.ts';
import type { Template } from '../../src/engine/template/types.ts';
import { sharedDir } from './shared.ts';

export const corpusDir = path.join(sharedDir, 'corpus/nuclei-templates');

export function tpl(text: string): Template {
  const r = parseTemplate(text, 'inline.yaml');
  if (!r.template) throw new Error(JSON.stringify(r.issues));
  return r.template;
}

/** An http template named `id` from its `http:` blocks (and top-level keys before them), parsed without any issue. */
export function httpTemplate(id: string, blocks: string, top = ''): Template {
  const r = parseTemplate(
    `id: ${id}\ninfo: { name: ${id}, author: vigil, severity: low }\n${top}http:\n${blocks}`,
    `${id}.yaml`,
  );
  expect(r.issues).toEqual([]);
  return r.template!;
}

export function corpusTemplate(rel: string): Template {
  const file = path.join(corpusDir, rel);
  const r = parseTemplate(readFileSync(file, 'utf8'), file, { fromDisk: true, templatesRoot: corpusDir });
  if (!r.template) throw new Error(`${rel}: ${JSON.stringify(r.issues)}`);
  return r.template;
}

/** Runs the templates on the targets (no rate limit, 3 s timeout) and returns every event. */
export async function scanEvents(
  templates: Template[],
  targets: string[],
  extra: Partial<ScanOptions> = {},
): Promise<ResultEvent[]> {
  const events: ResultEvent[] = [];
  await runScan({ targets, templates, rateLimit: 0, timeout: 3, onResult: (e) => events.push(e), ...extra });
  return events;
}
