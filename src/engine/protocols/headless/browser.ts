// The scan process's one browser: Debian's Chromium driven by playwright-core, both loaded on the first
// headless block (never at start-up, never a downloaded browser). Each template run gets a fresh
// incognito context (init scripts and cookies cannot be taken back from a reused one) from a bounded
// pool of page slots; the browser closes itself after a quiet minute so a long-lived worker does not
// keep it.
//
// The browser connects nowhere by itself: every http(s) request a page makes is intercepted and sent by
// the engine under the scan's connect guard (route.ts). Anything that would slip past interception
// (a websocket, DNS prefetch, WebRTC) meets a proxy setting that leads nowhere and a resolver that
// answers nothing.
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { lazy } from '../../lazy.ts';

const playwright = lazy<typeof import('playwright-core')>('playwright-core');

/** Debian's chromium, or VIGIL_CHROMIUM (read at each check). */
export const chromiumPath = (): string => process.env.VIGIL_CHROMIUM || '/usr/bin/chromium';

/** Why headless templates cannot run in this process (no browser), or undefined when they can. */
export function browserMissing(): string | undefined {
  const p = chromiumPath();
  if (existsSync(p)) return undefined;
  return `needs a browser: ${p} is missing (install Debian's chromium: apt-get install chromium)`;
}

/** Concurrent pages (each its own renderer); VIGIL_HEADLESS_PAGES overrides. */
export function pageSlots(): number {
  const n = Number(process.env.VIGIL_HEADLESS_PAGES);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 32) : 4;
}

/** V8 heap cap of each page's renderer (MB): a page that allocates without end dies alone. */
const RENDERER_HEAP_MB = 256;
const IDLE_CLOSE_MS = 60_000;

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--no-first-run',
  '--mute-audio',
  `--js-flags=--max-old-space-size=${RENDERER_HEAP_MB}`,
  // Requests are fulfilled by the engine before they reach the network stack; whatever is not (see the
  // header) goes to a proxy on a closed port, and names resolve to nothing.
  '--proxy-server=http://127.0.0.1:1',
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--dns-prefetch-disable',
];

let browser: Promise<Browser> | undefined;
let open = 0;
let idleTimer: NodeJS.Timeout | undefined;
const waiting: (() => void)[] = [];

async function launch(): Promise<Browser> {
  const missing = browserMissing();
  if (missing) throw new Error(`headless: ${missing}`);
  const b = await playwright().chromium.launch({ executablePath: chromiumPath(), args: ARGS });
  b.on('disconnected', () => {
    browser = undefined;
  });
  return b;
}

function getBrowser(): Promise<Browser> {
  if (!browser) {
    browser = launch();
    // A failed launch is not kept: the next block tries again (and says why again).
    browser.catch(() => (browser = undefined));
  }
  return browser;
}

async function takeSlot(signal?: AbortSignal): Promise<void> {
  while (open >= pageSlots()) {
    if (signal?.aborted) throw new Error('scan aborted');
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  open++;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
}

function giveSlot(): void {
  open--;
  waiting.shift()?.();
  if (open === 0 && browser) {
    idleTimer = setTimeout(() => void closeBrowser(), IDLE_CLOSE_MS);
    idleTimer.unref();
  }
}

/**
 * Runs `fn` with a fresh context of the scan's browser, in one of the pool's slots; the context is closed
 * after, whatever happens (its pages and their renderers with it).
 */
export async function withContext<T>(
  options: Parameters<Browser['newContext']>[0],
  fn: (context: BrowserContext) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  await takeSlot(signal);
  let context: BrowserContext | undefined;
  try {
    context = await (await getBrowser()).newContext(options);
    return await fn(context);
  } finally {
    await context?.close().catch(() => undefined);
    giveSlot();
  }
}

/** Closes the browser (the CLI at the end of a scan, tests, the idle timer). */
export async function closeBrowser(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
  const b = browser;
  browser = undefined;
  if (b) await (await b.catch(() => undefined))?.close().catch(() => undefined);
}
