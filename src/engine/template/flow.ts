// `flow` is JavaScript that runs the template's requests by protocol and position (`http(2)`) or id
// (`code("login")`). We do not run it here. Calling a protocol the template lacks is an error (nothing
// can run); an index or id out of range is a warning, because nuclei still runs the other calls (three
// corpus templates call `http(2)` with one http request and still report from `http(1)`).
import { IssueList } from './issues.ts';

const CALL =
  /\b(http|dns|tcp|network|ssl|file|headless|websocket|whois|code|javascript)\(\s*(\d+|"[^"]*"|'[^']*')?\s*\)/g;

/** `blocks`: protocol -> ids of its requests in order ('' when a request has no id). */
export function checkFlow(flow: string, blocks: Map<string, string[]>, out: IssueList): void {
  if (flow.trim() === '') {
    out.error('flow', 'must not be empty');
    return;
  }
  for (const m of flow.matchAll(CALL)) {
    const protocol = m[1] === 'network' ? 'tcp' : m[1];
    const requests = blocks.get(protocol);
    if (!requests) {
      out.error('flow', `${m[0]} calls a ${protocol} block the template does not have`);
      continue;
    }
    const arg = m[2];
    if (arg === undefined) continue;
    if (/^\d+$/.test(arg)) {
      const n = Number(arg);
      if (n < 1 || n > requests.length)
        out.warn('flow', `${m[0]}: the template has ${requests.length} ${protocol} request(s)`);
    } else if (!requests.includes(arg.slice(1, -1))) {
      out.warn('flow', `${m[0]}: no ${protocol} request has id ${arg}`);
    }
  }
}
