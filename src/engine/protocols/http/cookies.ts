// The cookie jar shared by the requests of one template on one target, as Go's net/http/cookiejar is for
// nuclei: RFC 6265 rules through tough-cookie (a maintained jar) — Domain and host-only cookies, the
// public suffix list (no cookie for a whole TLD), Secure cookies only over https, paths matched by segment
// (/admin does not cover /administrator), Max-Age and Expires.
import type { CookieJar as ToughJar } from 'tough-cookie';
import { lazy } from '../../lazy.ts';

const tough = lazy<typeof import('tough-cookie')>('tough-cookie');

export class CookieJar {
  private jar: ToughJar | undefined;

  /** Nothing stored yet (the usual case): callers skip building a Cookie header. */
  get empty(): boolean {
    return this.jar === undefined;
  }

  /** Stores the Set-Cookie headers of a response to `url`; bad or refused cookies are ignored. */
  store(url: string, setCookieHeaders: string[]): void {
    this.jar ??= new (tough().CookieJar)(undefined, { looseMode: true });
    for (const header of setCookieHeaders) {
      try {
        this.jar.setCookieSync(header, url, { ignoreError: true });
      } catch {
        // a cookie the rules refuse is dropped, as Go's jar drops it
      }
    }
  }

  /** Cookies for a request to `url`, as name -> value. */
  get(url: string): Map<string, string> {
    const out = new Map<string, string>();
    if (!this.jar) return out;
    try {
      for (const c of this.jar.getCookiesSync(url)) out.set(c.key, c.value);
    } catch {
      // an URL the jar cannot parse gets no cookies
    }
    return out;
  }

  /** Merges jar cookies into an existing Cookie header; cookies the request sets itself win. */
  cookieHeader(url: string, existing?: string): string | undefined {
    if (!this.jar) return existing;
    const fromJar = this.get(url);
    if (fromJar.size === 0) return existing;
    const own = new Set(
      (existing ?? '')
        .split(';')
        .map((p) => p.split('=')[0].trim())
        .filter(Boolean),
    );
    const extra = [...fromJar].filter(([n]) => !own.has(n)).map(([n, v]) => `${n}=${v}`);
    if (extra.length === 0) return existing;
    return existing ? `${existing}; ${extra.join('; ')}` : extra.join('; ');
  }
}
