// A small cookie jar shared by the requests of one template on one target: it remembers Set-Cookie
// values per host and sends them back, like a browser without path or expiry subtleties beyond deletion.

interface StoredCookie {
  value: string;
  path: string;
}

export class CookieJar {
  private hosts = new Map<string, Map<string, StoredCookie>>();

  /** Nothing stored yet (the usual case): callers skip building a Cookie header. */
  get empty(): boolean {
    return this.hosts.size === 0;
  }

  /** Stores the cookies of a response; `Max-Age=0` or an expiry in the past deletes them. */
  store(host: string, setCookieHeaders: string[]): void {
    const key = host.toLowerCase();
    let jar = this.hosts.get(key);
    if (!jar) this.hosts.set(key, (jar = new Map()));
    for (const header of setCookieHeaders) {
      const [pair, ...attrs] = header.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let path = '/';
      let expired = false;
      for (const a of attrs) {
        const [k, v = ''] = a.split('=').map((s) => s.trim());
        const lk = k.toLowerCase();
        if (lk === 'path' && v.startsWith('/')) path = v;
        else if (lk === 'max-age' && Number(v) <= 0) expired = true;
        else if (lk === 'expires' && Date.parse(v) < Date.now()) expired = true;
      }
      if (expired) jar.delete(name);
      else jar.set(name, { value, path });
    }
  }

  /** Cookies for a request to `host` at `path`, as name -> value. */
  get(host: string, path = '/'): Map<string, string> {
    const out = new Map<string, string>();
    const jar = this.hosts.get(host.toLowerCase());
    if (!jar) return out;
    for (const [name, c] of jar) if (path.startsWith(c.path) || c.path === '/') out.set(name, c.value);
    return out;
  }

  /** Merges jar cookies into an existing Cookie header; cookies the request sets itself win. */
  cookieHeader(host: string, path: string, existing?: string): string | undefined {
    if (this.hosts.size === 0) return existing; // the usual case: nothing stored yet
    const fromJar = this.get(host, path);
    if (fromJar.size === 0) return existing;
    const own = new Set((existing ?? '').split(';').map((p) => p.split('=')[0].trim()).filter(Boolean));
    const extra = [...fromJar].filter(([n]) => !own.has(n)).map(([n, v]) => `${n}=${v}`);
    if (extra.length === 0) return existing;
    return existing ? `${existing}; ${extra.join('; ')}` : extra.join('; ');
  }
}
