// Runs one javascript-protocol script (a block's `pre-condition` or `code`) in the engine's sandbox
// (js/sandbox.ts: QuickJS in WebAssembly on a worker thread) and returns what nuclei's compiler returns
// (pkg/js/compiler): `response`, `success` and the values of ExportAs, or `error`.
// - A script that names Export/ExportAs runs as the body of a function; its response is what it
//   exported (and what it returned), its success whether that is non-empty.
// - Any other script's response is its completion value and success that value's truthiness.
import { runScript, ScriptError, type HostFunction } from '../../js/sandbox.ts';
import { HostEnv, RefusedError, bytesOf, type HostOp } from './host.ts';
import { PRELUDE, REFUSED_MODULES } from './prelude.ts';
import { hexDump, netOps } from './modules/net.ts';
import { structsOps } from './modules/structs.ts';
import { redisOps } from './modules/redis.ts';
import { sshOps } from './modules/ssh.ts';
import { postgresOps } from './modules/postgres.ts';
import { mysqlOps } from './modules/mysql.ts';
import { rsyncOps } from './modules/rsync.ts';
import { smtpOps } from './modules/smtp.ts';
import { rdpOps } from './modules/rdp.ts';
import { mssqlOps } from './modules/mssql.ts';
import { oracleOps } from './modules/oracle.ts';
import { pop3Ops } from './modules/pop3.ts';
import { ldapOps } from './modules/ldap.ts';
import { smbOps } from './modules/smb.ts';
import { fsOps } from './modules/fs.ts';
import type { ConnectGuard } from '../../net/guard.ts';
import { crypto } from '../../lazy.ts';

const OPS: Record<string, HostOp> = {
  ...netOps,
  ...structsOps,
  ...redisOps,
  ...sshOps,
  ...postgresOps,
  ...mysqlOps,
  ...rsyncOps,
  ...smtpOps,
  ...rdpOps,
  ...mssqlOps,
  ...oracleOps,
  ...pop3Ops,
  ...ldapOps,
  ...smbOps,
  ...fsOps,
  Rand: (_env, [n]) => crypto().randomBytes(Math.max(0, Math.min(Number(n) || 0, 65536))),
  RandInt: () => crypto().randomInt(0, 2 ** 48 - 1),
  'bytes.Hexdump': (_env, [b]) => hexDump(bytesOf(b)),
};

export interface ScriptRun {
  args: Record<string, unknown>;
  template: Record<string, unknown>;
  guard?: ConnectGuard;
  targetHost: string | undefined;
  /** Each network call. */
  callTimeoutMs: number;
  /** The whole script, module calls included. */
  timeoutMs: number;
  signal?: AbortSignal;
  log?: (text: string) => void;
  /** The templates folder `nuclei/fs` may read; unset: it reads nothing. */
  filesRoot?: string;
  /** Given for a block's `init` script: its `updatePayload` and `set` calls (may throw to fail the call). */
  init?: InitHooks;
}

export interface InitHooks {
  updatePayload(name: string, value: unknown): void;
  set(name: string, value: unknown): void;
}

export interface ScriptOutcome {
  response: unknown;
  success: boolean;
  /** ExportAs values. */
  exports: Record<string, string>;
  error?: string;
  /** A module call the platform refused (deny list, target scope, refused module). */
  refused?: string;
}

const EXPORT_TOKENS = /Export(As)?/;

export async function runTemplateScript(code: string, r: ScriptRun): Promise<ScriptOutcome> {
  const iife = EXPORT_TOKENS.test(code);
  const exported: string[] = [];
  const exportsAs: Record<string, string> = Object.create(null);
  let refused: string | undefined;
  const ended = new AbortController();
  const env = new HostEnv({
    guard: r.guard,
    targetHost: r.targetHost,
    timeoutMs: r.callTimeoutMs,
    signal: ended.signal,
    log: r.log,
    filesRoot: r.filesRoot,
  });
  const init = r.init;
  const initFunctions: Record<string, HostFunction> = init
    ? {
        upd: ([k, v]: unknown[]) => {
          init.updatePayload(String(k), v);
          return null;
        },
        set: ([k, v]: unknown[]) => {
          init.set(String(k), v);
          return null;
        },
      }
    : {};
  const onAbort = () => ended.abort();
  r.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const { value } = await runScript(iife ? `(function () {\n${code}\n})()` : code, {
      filename: 'javascript.js',
      prelude: PRELUDE,
      data: { args: r.args, template: r.template, refused: REFUSED_MODULES, init: !!init },
      timeoutMs: r.timeoutMs,
      signal: ended.signal,
      functions: {
        ...initFunctions,
        op: async ([name, args]) => {
          const fn = OPS[String(name)];
          if (!fn || !Object.hasOwn(OPS, String(name))) throw new Error(`${String(name)} is not supported`);
          try {
            return (await fn(env, Array.isArray(args) ? args : [])) ?? null;
          } catch (err) {
            if (err instanceof RefusedError || (err as { code?: string }).code === 'EGRESS_DENIED')
              refused ??= (err as Error).message;
            throw err;
          }
        },
        log: ([t]) => {
          r.log?.(String(t).slice(0, 4096));
          return null;
        },
        exp: ([t]) => {
          if (exported.reduce((n, s) => n + s.length, 0) < 4 * 1024 * 1024) exported.push(String(t));
          return null;
        },
        expAs: ([k, v]) => {
          exportsAs[String(k)] = String(v);
          return null;
        },
      },
    });
    if (iife) {
      const out = exported.join('') + (value === null ? '' : stringOf(value));
      return { response: out, success: out !== '', exports: { ...exportsAs } };
    }
    return { response: value, success: truthy(value), exports: { ...exportsAs } };
  } catch (err) {
    const message = err instanceof ScriptError ? err.message : String((err as Error)?.message ?? err);
    return { response: undefined, success: false, exports: { ...exportsAs }, error: message, refused };
  } finally {
    r.signal?.removeEventListener('abort', onAbort);
    ended.abort();
    env.closeAll();
  }
}

function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (typeof v === 'number' && Number.isNaN(v)) return false;
  return true;
}

/** How a returned value reads as the response (Go's %v of what goja exports, objects as JSON). */
export function stringOf(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (typeof v === 'object') return JSON.stringify(v, null, 2);
  return String(v);
}
