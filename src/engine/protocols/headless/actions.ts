// nuclei's headless actions on one page, in order (pkg/protocols/headless/engine/page_actions.go). Named
// actions write their output (`script`'s value, `extract`'s text, `waitdialog`'s dialog ...) to the values
// the block's matchers see. An action that fails ends the run with the error, as nuclei's do.
import path from 'node:path';
import { mkdirSync, existsSync, writeFileSync } from 'node:fs';
import type { Dialog, Locator, Page } from 'playwright-core';
import type { PageTraffic, Rule } from './route.ts';

export interface Action {
  action: string;
  args: Record<string, string>;
  name?: string;
}

export interface ActionEnv {
  page: Page;
  traffic: PageTraffic;
  /** Renders an argument with the run's values (throws on unresolved variables). */
  arg(a: Action, key: string): string;
  /** Where `screenshot` may write (`vigil scan`: its working folder); unset: screenshots are not written. */
  screenshotDir?: string;
  /** The page's time budget end (Date.now() scale): no single wait outlives it. */
  deadline: number;
  /** Dialogs that opened and were not yet taken by a `waitdialog`. */
  dialogs: Dialog[];
  onDialog: ((d: Dialog) => void) | undefined;
}

export type ActionData = Record<string, unknown>;

/** nuclei's time arguments: a bare number in `unit` ms, or a Go duration (5s, 300ms); else the default. */
function duration(text: string, fallbackMs: number, unitMs: number): number {
  if (text === '') return fallbackMs;
  if (/^-?\d+$/.test(text)) return Number(text) * unitMs;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text.trim());
  if (!m) return fallbackMs;
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms']!;
}

/** A wait bounded by the page's deadline. */
function within(env: ActionEnv, ms: number): number {
  return Math.max(1, Math.min(ms, env.deadline - Date.now()));
}

/** rod's element lookups by `by`: css (default), xpath, regex (css + text), js, search. */
function element(env: ActionEnv, a: Action): Locator {
  const p = env.page;
  switch (a.args.by ?? '') {
    case 'r':
    case 'regex':
      return p
        .locator(env.arg(a, 'selector') || '*')
        .filter({ hasText: new RegExp(env.arg(a, 'regex')) })
        .first();
    case 'x':
    case 'xpath':
      return p.locator(`xpath=${env.arg(a, 'xpath')}`).first();
    case 'search': {
      const q = env.arg(a, 'query');
      return p
        .locator(q.startsWith('/') ? `xpath=${q}` : q)
        .or(p.getByText(q))
        .first();
    }
    default:
      return p.locator(env.arg(a, 'selector') || env.arg(a, 'xpath')).first();
  }
}

/** rod's Eval: the code is a function called on the page, its value returned by value. */
function asCall(code: string): string {
  const js = code.replace(/^[\t\n\v\f\r ;]+|[\t\n\v\f\r ;]+$/g, '');
  return `(function() { return (${js}).apply(this, arguments) })()`;
}

/** gson's String(): a string as it is, anything else as JSON (undefined and null: "null"). */
function valueText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return 'null';
  return JSON.stringify(v) ?? 'null';
}

function rule(env: ActionEnv, a: Action, kind: Rule['action']): void {
  const part = env.arg(a, 'part');
  const key = kind === 'setbody' || kind === 'setmethod' ? '' : env.arg(a, 'key');
  const value =
    kind === 'setbody'
      ? env.arg(a, 'body')
      : kind === 'setmethod'
        ? env.arg(a, 'method')
        : kind === 'deleteheader'
          ? ''
          : env.arg(a, 'value');
  env.traffic.rules.push({ action: kind, part, key, value });
}

/** The screenshot's file inside `dir`, or an error: a template may not write anywhere else. */
export function screenshotFile(dir: string, to: string): string {
  const name = to.endsWith('.png') ? to : `${to}.png`;
  const root = path.resolve(dir);
  const file = path.resolve(root, name);
  if (file !== root && !file.startsWith(root + path.sep))
    throw new Error(`screenshot path ${to} is outside the screenshot folder`);
  return file;
}

async function screenshot(env: ActionEnv, a: Action, out: ActionData): Promise<void> {
  let to = env.arg(a, 'to');
  if (to === '') {
    to = `screenshot-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    if (a.name) out[a.name] = to;
  }
  // The path is checked before the page is captured: a refused path fails the same way whatever state
  // the page is in (a capture can itself fail while the page is still busy).
  const file = env.screenshotDir ? screenshotFile(env.screenshotDir, to) : undefined;
  if (file && existsSync(file)) throw new Error(`failed to write screenshot, file ${file} already exists`);
  const png = await env.page.screenshot({
    fullPage: env.arg(a, 'fullpage') === 'true',
    type: 'png',
    timeout: within(env, 10_000),
  });
  if (!file) return;
  if (env.arg(a, 'mkdir') === 'true') mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, png, { mode: 0o640, flag: 'wx' });
}

async function waitDialog(env: ActionEnv, a: Action, out: ActionData): Promise<void> {
  const max = within(env, duration(env.arg(a, 'max-duration'), 10_000, 1000));
  let d = env.dialogs.shift();
  if (!d) {
    d = await new Promise<Dialog | undefined>((resolve) => {
      const timer = setTimeout(() => {
        env.onDialog = undefined;
        resolve(undefined);
      }, max);
      env.onDialog = (dialog) => {
        clearTimeout(timer);
        env.onDialog = undefined;
        resolve(dialog);
      };
    });
  }
  // As nuclei: no dialog within the time is not an error, the outputs are just not set.
  if (d && a.name) {
    out[a.name] = true;
    out[`${a.name}_type`] = d.type();
    out[`${a.name}_message`] = d.message();
  }
}

async function lifecycle(env: ActionEnv, a: Action, state: 'load' | 'domcontentloaded' | 'networkidle'): Promise<void> {
  const timeout = within(env, duration(env.arg(a, 'timeout'), 5000, 1000));
  // rod's WaitNavigation gives up quietly after its timeout; so does this.
  await env.page.waitForLoadState(state, { timeout }).catch(() => undefined);
}

export async function runAction(env: ActionEnv, a: Action, out: ActionData, baseQuery: string): Promise<void> {
  const p = env.page;
  const t = (ms = 5000) => within(env, ms);
  switch (a.action) {
    case 'navigate': {
      const target = env.arg(a, 'url');
      if (target === '') throw new Error('invalid arguments provided');
      const u = new URL(target);
      // nuclei merges the input's query parameters into the navigated URL.
      if (baseQuery)
        for (const [k, v] of new URLSearchParams(baseQuery)) if (!u.searchParams.has(k)) u.searchParams.append(k, v);
      // rod's Navigate returns when the navigation commits; waitload and friends wait for more.
      await p.goto(u.href, { waitUntil: 'commit', timeout: t(30_000) });
      return;
    }
    case 'script': {
      const code = env.arg(a, 'code');
      if (code === '') throw new Error('invalid arguments provided');
      // A hook runs first in every document the page loads from now on (before the page's own scripts).
      if (env.arg(a, 'hook') === 'true') await p.addInitScript({ content: asCall(code) });
      const v: unknown = await p.evaluate(asCall(code));
      if (a.name) out[a.name] = valueText(v);
      return;
    }
    case 'click':
    case 'rightclick': {
      const el = element(env, a);
      await el.scrollIntoViewIfNeeded({ timeout: t() });
      await el.click({ button: a.action === 'click' ? 'left' : 'right', timeout: t() });
      return;
    }
    case 'text': {
      const value = env.arg(a, 'value');
      if (value === '') throw new Error('invalid arguments provided');
      await element(env, a).fill(value, { timeout: t() });
      return;
    }
    case 'time': {
      const value = env.arg(a, 'value');
      const d = new Date(value);
      if (!value || Number.isNaN(d.getTime())) throw new Error('could not parse time');
      await element(env, a).fill(d.toISOString().slice(0, 16), { timeout: t() });
      return;
    }
    case 'select': {
      const value = env.arg(a, 'value');
      if (value === '') throw new Error('invalid arguments provided');
      const by = env.arg(a, 'selector');
      await element(env, a).selectOption(by === 'css' || by === 'r' || by === 'regex' ? value : { label: value }, {
        timeout: t(),
      });
      return;
    }
    case 'files':
      // nuclei needs -allow-local-file-access for this; a scanner never hands its own files to a target.
      throw new Error('files: local file access is not allowed');
    case 'screenshot':
      return screenshot(env, a, out);
    case 'waitload':
      return lifecycle(env, a, 'load');
    case 'waitdom':
      return lifecycle(env, a, 'domcontentloaded');
    case 'waitidle':
    case 'waitfcp':
    case 'waitfmp':
    case 'waitstable':
      // Chromium's paint events are not exposed to playwright; the network going quiet stands for them.
      return lifecycle(env, a, 'networkidle');
    case 'waitvisible':
      await element(env, a).waitFor({ state: 'visible', timeout: t() });
      return;
    case 'waitdialog':
      return waitDialog(env, a, out);
    case 'waitevent':
      // Chrome DevTools events by name are not reachable through playwright; waits the time instead.
      await p.waitForTimeout(within(env, duration(env.arg(a, 'max-duration'), 5000, 1000)));
      return;
    case 'getresource': {
      const el = element(env, a);
      const src = await el.getAttribute('src', { timeout: t() });
      if (src && a.name) {
        // Fetched by the page, so the request is intercepted and guarded like every other.
        out[a.name] = await p
          .evaluate(async (u) => (await fetch(u)).text(), new URL(src, p.url()).href)
          .catch(() => '');
      }
      return;
    }
    case 'extract': {
      const el = element(env, a);
      await el.scrollIntoViewIfNeeded({ timeout: t() });
      if (env.arg(a, 'target') === 'attribute') {
        const attr = env.arg(a, 'attribute');
        if (attr === '') throw new Error("attribute can't be empty");
        const v = await el.getAttribute(attr, { timeout: t() });
        if (a.name) out[a.name] = v ?? '';
      } else if (a.name) out[a.name] = await el.innerText({ timeout: t() });
      return;
    }
    case 'setheader':
    case 'addheader':
    case 'deleteheader':
    case 'setbody':
    case 'setmethod':
      rule(env, a, a.action);
      return;
    case 'keyboard':
      await p.keyboard.type(env.arg(a, 'keys'));
      return;
    case 'sleep':
      await p.waitForTimeout(within(env, duration(env.arg(a, 'duration'), 5000, 1000)));
      return;
    case 'debug':
      return;
    default:
      return;
  }
}
