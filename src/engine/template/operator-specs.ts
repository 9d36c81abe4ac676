// Shape entries for `matchers`, `extractors` and `matchers-condition`, shared by every protocol block.
import type { Extractor, Matcher } from './types.ts';
import { IssueList, join } from './issues.ts';
import { validateExtractor, validateMatcher } from './operators.ts';
import { kind } from './values.ts';
import type { Spec } from './shape.ts';

function checkList<T>(
  check: (item: unknown, field: string) => { value?: T; issues: { field: string; reason: string }[] },
): Spec {
  return {
    custom: (v: unknown, field: string, out: IssueList): T[] | undefined => {
      if (!Array.isArray(v)) {
        out.error(field, `must be a list, got ${kind(v)}`);
        return undefined;
      }
      const result: T[] = [];
      v.forEach((item, i) => {
        const r = check(item, join(field, i));
        for (const issue of r.issues) out.error(issue.field, issue.reason);
        if (r.value) result.push(r.value);
      });
      return result;
    },
  };
}

export const matchersSpec: Spec = checkList<Matcher>(validateMatcher);
export const extractorsSpec: Spec = checkList<Extractor>(validateExtractor);

export const operatorFields: Record<string, Spec> = {
  matchers: matchersSpec,
  extractors: extractorsSpec,
  'matchers-condition': { enum: ['and', 'or'] },
};
