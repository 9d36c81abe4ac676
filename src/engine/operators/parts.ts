// Which text of the response a matcher or extractor looks at (nuclei's getMatchPart).
import { valueToString } from '../dsl/index.ts';

export function matchPart(part: string | undefined, data: Record<string, unknown>): string | undefined {
  let p = part || 'body';
  if (p === 'header') p = Object.prototype.hasOwnProperty.call(data, 'all_headers') ? 'all_headers' : 'header';
  if (p === 'all') return valueToString(data.body) + valueToString(data.all_headers ?? data.header);
  if (p === 'raw' && !Object.prototype.hasOwnProperty.call(data, 'raw')) p = 'response';
  if (!Object.prototype.hasOwnProperty.call(data, p)) return undefined;
  return valueToString(data[p]);
}
