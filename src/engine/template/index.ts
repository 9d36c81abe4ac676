// Public surface of the template loader.
export { parseTemplate, ID_PATTERN, type ParseOptions, type ParseResult } from './parse.ts';
export {
  loadTemplateFile,
  loadTemplates,
  compileFilter,
  type LoadOptions,
  type LoadResult,
  type TemplateFilter,
} from './load.ts';
export { compileTemplate, hasProtocolBlock } from './lazy-template.ts';
export { replaceRandstr, randomId } from './randstr.ts';
export { needsReqCondition } from './req-condition.ts';
export type * from './types.ts';
