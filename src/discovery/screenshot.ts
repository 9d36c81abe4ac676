// http_screenshot: a PNG of each web page, taken by Debian's chromium through playwright-core. Without a
// browser the step is skipped with a notice (never downloads one).
import { existsSync } from 'node:fs';
import type { ConnectGuard } from '../engine/index.ts';
import { startEgressProxy, type EgressProxy } from './egress-proxy.ts';

/** Debian's chromium, or VIGIL_CHROMIUM (read at each run). */
export const chromiumPath = () => process.env.VIGIL_CHROMIUM || '/usr/bin/chromium';

export interface Screenshotter {
  take(url: string): Promise<Buffer | undefined>;
  close(): Promise<void>;
}

/**
 * A browser session, or a reason why there is none. Under a connect guard every connection the browser
 * makes goes through a local proxy that decides it (egress-proxy.ts); WebRTC may not send UDP around it.
 */
export async function openScreenshotter(
  timeoutMs: number,
  hosts: Map<string, string>,
  guard?: ConnectGuard,
): Promise<Screenshotter | string> {
  const CHROMIUM = chromiumPath();
  if (!existsSync(CHROMIUM)) return `http_screenshot skipped: no browser at ${CHROMIUM} (install Debian's chromium)`;
  let chromium: typeof import('playwright-core').chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    return 'http_screenshot skipped: playwright-core is not installed';
  }
  const proxy: EgressProxy | undefined = guard ? await startEgressProxy(guard, hosts) : undefined;
  // Names map to the addresses discovery resolved (custom resolvers), not the system's answers; behind
  // the proxy, the proxy maps them.
  const resolving = proxy
    ? [
        `--proxy-server=${proxy.url}`,
        '--proxy-bypass-list=<-loopback>',
        '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
      ]
    : hosts.size
      ? [`--host-resolver-rules=${[...hosts].map(([h, ip]) => `MAP ${h} ${ip}`).join(', ')}`]
      : [];
  const browser = await chromium
    .launch({
      executablePath: CHROMIUM,
      args: [
        ...resolving,
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
    .catch((e: Error) => e);
  if (browser instanceof Error) {
    await proxy?.close();
    return `http_screenshot skipped: chromium did not start (${browser.message.split('\n')[0]})`;
  }
  return {
    async take(url) {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 800 } });
      try {
        const page = await context.newPage();
        await page.goto(url, { timeout: timeoutMs, waitUntil: 'load' });
        return await page.screenshot({ type: 'png' });
      } catch {
        return undefined;
      } finally {
        await context.close().catch(() => {});
      }
    },
    close: async () => {
      await browser.close();
      await proxy?.close();
    },
  };
}
