// Time helpers: date_time accepts both %Y-%M-%D placeholders and Go layouts.
import { DslError } from '../errors.ts';
import { toStr } from '../values.ts';
import { define, invalid } from './registry.ts';
import { goFormat, goParse } from './gotime.ts';

const DEFAULT_LAYOUTS = [
  '2006-01-02T15:04:05Z07:00',
  '2006-01-02 15:04:05 Z07:00',
  '2006-01-02 15:04:05',
  '2006-01-02 15:04 Z07:00',
  '2006-01-02 15:04',
  '2006-01-02 Z07:00',
  '2006-01-02',
];

function timeArg(a: unknown[]): Date {
  if (a.length !== 2) return new Date();
  const v = a[1];
  if (v instanceof Date) return v;
  if (typeof v === 'number') return new Date(Math.trunc(v) * 1000);
  if (typeof v === 'string' && /^[+-]?\d+$/.test(v)) return new Date(Number(v) * 1000);
  throw new DslError('date_time: invalid argument type');
}

function simpleFormat(format: string, d: Date): string {
  let out = format;
  for (const m of format.matchAll(/%([A-Za-z])/g)) {
    let value: number;
    switch (m[1]) {
      case 'Y':
      case 'y':
        value = d.getFullYear();
        break;
      case 'M':
        value = d.getMonth() + 1;
        break;
      case 'D':
      case 'd':
        value = d.getDate();
        break;
      case 'H':
      case 'h':
        value = d.getHours();
        break;
      case 'm':
        value = d.getMinutes();
        break;
      case 'S':
      case 's':
        value = d.getSeconds();
        break;
      default:
        throw new DslError(`date_time: invalid date time format string: ${m[0]}`);
    }
    out = out.split(m[0]).join(String(value).padStart(2, '0'));
  }
  return out;
}

/** Longest wait one wait_for call may ask for. */
export const MAX_WAIT_FOR_SECONDS = 60;

// wait_for never sleeps: expressions are synchronous and share the event loop with everything else, so
// a sleep here would freeze the whole process. The call records the delay; the protocol code that
// rendered or evaluated the expression awaits it (takePendingWait) before going on.
let pendingWaitMs = 0;

/** The delay wait_for calls asked for since the last call, in ms; resets it. */
export function takePendingWait(): number {
  const ms = pendingWaitMs;
  pendingWaitMs = 0;
  return ms;
}

export function registerTime(): void {
  define('date_time', undefined, (a) => {
    if (a.length < 1 || a.length > 2) throw invalid('date_time');
    const format = toStr(a[0]);
    const d = timeArg(a);
    return /%[A-Za-z]/.test(format) ? simpleFormat(format, d) : goFormat(d, format);
  });
  define('unix_time', undefined, (a) => {
    if (a.length > 1) throw invalid('unix_time');
    const offset = a.length === 1 ? Math.trunc(Number(a[0])) : 0;
    if (!Number.isFinite(offset)) throw new DslError('unix_time: argument must be a number');
    return Math.floor(Date.now() / 1000) + offset;
  });
  define('to_unix_time', undefined, (a) => {
    if (a.length < 1 || a.length > 2) throw invalid('to_unix_time');
    const input = toStr(a[0]);
    if (input.trim() !== '' && !Number.isNaN(Number(input))) return Math.trunc(Number(input));
    if (a.length === 1) {
      for (const layout of DEFAULT_LAYOUTS) {
        const t = goParse(input, layout);
        if (t !== undefined) return t;
      }
      throw new DslError('to_unix_time: could not parse the current input with the default layouts');
    }
    const layout = toStr(a[1]);
    const t = goParse(input, layout);
    if (t === undefined)
      throw new DslError(`to_unix_time: could not parse the current input with the '${layout}' layout`);
    return t;
  });
  define('wait_for', undefined, (a) => {
    if (a.length !== 1) throw invalid('wait_for');
    const seconds = Number(a[0]);
    if (!Number.isFinite(seconds)) throw new DslError('wait_for: seconds must be a number');
    if (seconds > 0) pendingWaitMs += Math.min(Math.trunc(seconds), MAX_WAIT_FOR_SECONDS) * 1000;
    return true;
  });
}
