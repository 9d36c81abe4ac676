// nuclei turns on request history ("req-condition") by itself when a matcher or extractor refers to
// the response of a numbered request, such as `status_code_2` or part `body_1`.
import { isMap } from './values.ts';

const NUMBERED_NAME = /[A-Za-z]\w*?_\d+\b/;

/** Looks at the raw matcher/extractor maps, so it works even when one of them failed validation. */
export function needsReqCondition(operators: unknown[]): boolean {
  for (const op of operators) {
    if (!isMap(op)) continue;
    if (typeof op.part === 'string' && NUMBERED_NAME.test(op.part)) return true;
    if (Array.isArray(op.dsl) && op.dsl.some((e) => typeof e === 'string' && NUMBERED_NAME.test(e))) return true;
  }
  return false;
}
