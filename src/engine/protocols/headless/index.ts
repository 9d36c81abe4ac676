// The headless protocol (nuclei's pkg/protocols/headless): a template's `steps` run in a real browser
// page, one fresh page per payload combination, and the block's matchers see the resulting page:
// `data` (also `body`/`resp`: the page's HTML after the steps), `header` and `status_code` (the main
// document's last response), `history` (every exchange the page made), `req` (the steps), and each
// named action's output (`script` values, `extract` texts, `waitdialog`'s `<name>`, `<name>_type`,
// `<name>_message`). The browser is Debian's Chromium (browser.ts); every request a page makes is sent
// by the engine under the scan's connect guard (route.ts).
import type { Template } from '../../template/types.ts';
import type { BlockContext, BlockResult, Protocol } from '../types.ts';
import {
  blockVars,
  combos,
  commonBlock,
  inputVariables,
  operate,
  render,
  unresolved,
  type CommonBlock,
} from '../common/block.ts';
import { parseInput } from '../http/input.ts';
import { browserMissing, withContext } from './browser.ts';
import { runAction, type Action, type ActionData, type ActionEnv } from './actions.ts';
import { interceptor, type PageTraffic } from './route.ts';
import { compileFuzzing, fuzzedUrls, type FuzzRule } from './fuzz.ts';
import type { Dialog } from 'playwright-core';

export { closeBrowser, browserMissing } from './browser.ts';
export { screenshotFile } from './actions.ts';

export interface HeadlessBlock extends CommonBlock {
  steps: Action[];
  userAgent?: string;
  disableCookie: boolean;
  fuzzing?: FuzzRule[];
  /** Why the block's fuzzing rules cannot run here. */
  fuzzingProblem?: string;
}

/** A page's whole run (every step and the page's own loading) ends by then: nuclei's -page-timeout. */
const PAGE_BUDGET_MS = 40_000;

function compile(t: Template): HeadlessBlock[] {
  return t.other
    .filter((b) => b.protocol === 'headless')
    .map((b) => {
      const c = commonBlock(b);
      const f = c.fields;
      const steps = Array.isArray(f.steps) ? (f.steps as Record<string, unknown>[]) : [];
      const fuzzing = f.fuzzing === undefined ? undefined : compileFuzzing(f.fuzzing);
      return {
        fuzzing: typeof fuzzing === 'string' ? undefined : fuzzing,
        fuzzingProblem: typeof fuzzing === 'string' ? fuzzing : undefined,
        ...c,
        steps: steps.map((s) => ({
          action: String(s.action ?? ''),
          name: typeof s.name === 'string' && s.name ? s.name : undefined,
          args: Object.fromEntries(
            Object.entries((s.args as Record<string, unknown> | undefined) ?? {}).map(([k, v]) => [
              k,
              v === null || v === undefined ? '' : String(v),
            ]),
          ),
        })),
        userAgent:
          f.user_agent === 'custom' && typeof f.custom_user_agent === 'string' ? f.custom_user_agent : undefined,
        disableCookie: f['disable-cookie'] === true,
      };
    });
}

const compiled = new WeakMap<Template, HeadlessBlock[]>();

interface PageRun {
  out: ActionData;
  html: string;
  traffic: PageTraffic;
  url: string;
  error?: string;
}

async function runPage(
  b: HeadlessBlock,
  ctx: BlockContext,
  vars: Record<string, unknown>,
  target: string,
): Promise<PageRun> {
  const traffic: PageTraffic = { rules: [], history: [], historyBytes: 0, refused: [], requests: 0 };
  const out: ActionData = {};
  const headers = Object.fromEntries(ctx.o.headers ?? []);
  return withContext(
    {
      ignoreHTTPSErrors: true,
      serviceWorkers: 'block',
      viewport: { width: 1280, height: 800 },
      userAgent: b.userAgent,
      extraHTTPHeaders: Object.keys(headers).length ? headers : undefined,
    },
    async (context) => {
      const page = await context.newPage();
      const deadline = Date.now() + PAGE_BUDGET_MS;
      const env: ActionEnv = {
        page,
        traffic,
        deadline,
        dialogs: [],
        onDialog: undefined,
        screenshotDir: ctx.o.screenshotDir,
        arg(a, key) {
          const text = a.args[key] ?? '';
          const rendered = render(text, vars);
          const missing = unresolved(rendered, vars);
          if (missing.length > 0)
            throw new Error(`argument "${key}", value: "${text}": unresolved variables: ${missing.join(', ')}`);
          return rendered;
        },
      };
      // Dialogs are accepted as they open (as nuclei's handler does) and kept for `waitdialog`.
      page.on('dialog', (d: Dialog) => {
        if (env.onDialog) env.onDialog(d);
        else if (env.dialogs.length < 32) env.dialogs.push(d);
        d.accept().catch(() => undefined);
      });
      await context.route(
        '**/*',
        interceptor(
          traffic,
          ctx.o,
          (r) => r.request().isNavigationRequest() && r.request().frame() === page.mainFrame(),
        ),
      );
      // Websockets are not sent through the guard; a page may not open them (the proxy would refuse anyway).
      await context.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: 'refused by the scanner' }));
      context.setDefaultTimeout(10_000);
      const baseQuery = parseInput(target).rawQuery;
      let error: string | undefined;
      const timer = setTimeout(() => void page.close().catch(() => undefined), PAGE_BUDGET_MS + 5000);
      try {
        for (const a of b.steps) {
          if (ctx.o.signal?.aborted) throw new Error('scan aborted');
          if (Date.now() > deadline) throw new Error('headless action execution deadline exceeded');
          await runAction(env, a, out, baseQuery);
        }
      } catch (err) {
        error = `error occurred executing action: ${(err as Error).message.split('\n')[0]}`;
      } finally {
        clearTimeout(timer);
      }
      let html = '';
      if (!error && !page.isClosed())
        html = await page.evaluate(() => document.documentElement?.outerHTML ?? '').catch(() => '');
      return { out, html, traffic, url: page.isClosed() ? '' : page.url(), error };
    },
    ctx.o.signal,
  );
}

/** The steps as text (the finding's request). */
function describe(b: HeadlessBlock, url: string): string {
  return b.steps
    .map((s) => (s.action === 'navigate' ? `\tnavigate => ${url}` : `\t${s.action} ${JSON.stringify(s.args)}`))
    .join('\n');
}

async function execute(b: HeadlessBlock, ctx: BlockContext): Promise<BlockResult> {
  const target = ctx.target ?? '';
  let builtins: Record<string, string>;
  let input: ReturnType<typeof parseInput>;
  try {
    builtins = inputVariables(target);
    input = parseInput(target);
  } catch {
    return { matched: false, requests: 0, error: `could not parse URL ${target}` };
  }
  const state = { matched: false, requests: 0, error: undefined as string | undefined };
  // As nuclei: template variables are evaluated once for the run (a rand_int stays the same in the
  // payload and the matcher), and payload values are rendered with them.
  const base = blockVars(ctx, builtins, {});
  for (const combo of combos(ctx, b)) {
    if (ctx.o.signal?.aborted) break;
    const payloads: Record<string, string> = {};
    for (const k in combo) payloads[k] = render(combo[k]!, base);
    const vars = { ...base, ...payloads };
    if (!b.fuzzing) {
      if (await runOnce(b, ctx, target, vars, payloads, state))
        return { matched: true, requests: state.requests, stop: true };
      continue;
    }
    // Each fuzzed URL is the input of one run: {{BaseURL}} and the other built-ins are its.
    const urls = fuzzedUrls(b.fuzzing, input.url.href.split('?')[0]!, input.rawQuery, (text) => render(text, vars));
    for (const url of urls) {
      if (ctx.o.signal?.aborted) break;
      const fuzzedVars = { ...vars, ...inputVariables(url) };
      if (await runOnce(b, ctx, url, fuzzedVars, payloads, state))
        return { matched: true, requests: state.requests, stop: true };
    }
  }
  return { matched: state.matched, requests: state.requests, error: state.matched ? undefined : state.error };
}

/** One page run and its operators; true when the template asked to stop at its first match and matched. */
async function runOnce(
  b: HeadlessBlock,
  ctx: BlockContext,
  target: string,
  vars: Record<string, unknown>,
  combo: Record<string, string>,
  state: { matched: boolean; requests: number; error: string | undefined },
): Promise<boolean> {
  if (ctx.o.takeToken) await ctx.o.takeToken();
  let run: PageRun;
  try {
    run = await runPage(b, ctx, vars, target);
  } catch (err) {
    state.error = `could not get html element: ${(err as Error).message.split('\n')[0]}`;
    return false;
  }
  state.requests += Math.max(1, run.traffic.requests);
  if (run.traffic.refused.length > 0) state.error = `refused: ${run.traffic.refused[0]}`;
  if (run.error) {
    state.error = run.traffic.refused.length ? `${run.error} (refused: ${run.traffic.refused[0]})` : run.error;
    return false;
  }
  const req = describe(b, run.url);
  const data: Record<string, unknown> = {
    type: 'headless',
    host: ctx.target ?? target,
    matched: run.url,
    req,
    data: run.html,
    body: run.html,
    resp: run.html,
    header: run.traffic.header ?? '',
    status_code: run.traffic.status === undefined ? '' : String(run.traffic.status),
    history: run.traffic.history.join('\n'),
    ...run.out,
    ...combo,
  };
  const r = await operate(ctx, 'headless', b, data, vars, {
    host: ctx.target ?? target,
    matchedAt: run.url,
    request: req,
    response: run.html,
  });
  if (!r.matched) return false;
  state.matched = true;
  return Boolean(ctx.t.stopAtFirstMatch || b.fields['stop-at-first-match'] === true);
}

export const headlessProtocol: Protocol<HeadlessBlock> = {
  name: 'headless',
  blocks(t) {
    let hit = compiled.get(t);
    if (!hit) compiled.set(t, (hit = compile(t)));
    return hit;
  },
  unsupported(b) {
    return b.fuzzingProblem ?? browserMissing();
  },
  execute,
};
