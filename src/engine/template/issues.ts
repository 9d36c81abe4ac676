// Collects problems found while reading one template, each tagged with its file and field path.
import type { TemplateIssue } from './types.ts';

export class IssueList {
  readonly errors: TemplateIssue[] = [];
  readonly warnings: TemplateIssue[] = [];
  constructor(readonly file: string) {}

  error(field: string, reason: string): void {
    this.errors.push({ file: this.file, field, reason });
  }

  warn(field: string, reason: string): void {
    this.warnings.push({ file: this.file, field, reason });
  }
}

/** `http[0]` + `matchers` -> `http[0].matchers`; the root has an empty path. */
export function join(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return base ? `${base}.${key}` : key;
}
