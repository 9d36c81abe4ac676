// Child process for the network helpers (see network.ts): runs one task, prints one JSON line.
import dns from 'node:dns/promises';
import { jarmHash } from './jarm.ts';

async function resolve(host: string, format: string): Promise<string> {
  switch (format) {
    case '4':
    case 'a':
      return (await dns.lookup(host, { family: 4 })).address;
    case '6':
    case 'aaaa':
      return (await dns.lookup(host, { family: 6 })).address;
    case 'cname':
      return (await dns.resolveCname(host))[0] ?? '';
    case 'ns':
      return (await dns.resolveNs(host))[0] ?? '';
    case 'txt':
      return ((await dns.resolveTxt(host))[0] ?? []).join('');
    case 'srv': {
      const r = (await dns.resolveSrv(host))[0];
      return r ? r.name : '';
    }
    case 'ptr':
      return (await dns.reverse(host))[0] ?? '';
    case 'mx': {
      const r = (await dns.resolveMx(host))[0];
      return r ? r.exchange : '';
    }
    case 'soa':
      return (await dns.resolveSoa(host)).nsname;
    default: {
      const r = (await dns.resolveCaa(host))[0];
      return r ? String(r.issue ?? r.issuewild ?? r.iodef ?? '') : '';
    }
  }
}

async function publicIp(): Promise<string> {
  for (const url of ['https://api.ipify.org', 'https://checkip.amazonaws.com', 'https://icanhazip.com']) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      const ip = (await res.text()).trim();
      if (/^[0-9a-f:.]+$/i.test(ip)) return ip;
    } catch {
      // try the next service
    }
  }
  throw new Error('could not retrieve public ip');
}

async function main(): Promise<void> {
  const [task, args] = JSON.parse(process.argv[2]) as [string, string[]];
  let value: string;
  if (task === 'resolve') value = await resolve(args[0], args[1]);
  else if (task === 'jarm') value = await jarmHash(args[0], Number(args[1]), undefined, args[2]);
  else value = await publicIp();
  process.stdout.write(JSON.stringify({ ok: true, value }) + '\n');
}

main().catch((e: Error) => {
  process.stdout.write(JSON.stringify({ ok: false, error: e.message }) + '\n');
});
