// jarm and resolve against local targets. The TLS server runs in its own process because DSL
// evaluation is synchronous (the network work happens in a child process while this one waits).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, evaluateWithIO, isPendingIO } from '../../../src/engine/dsl/index.ts';
import { clientHello, jarmFuzzyHash, mung, readServerHello } from '../../../src/engine/dsl/functions/jarm.ts';

describe('jarm building blocks', () => {
  it('reorders lists like the reference implementation', () => {
    expect(mung([1, 2, 3, 4, 5], 'REVERSE')).toEqual([5, 4, 3, 2, 1]);
    expect(mung([1, 2, 3, 4, 5], 'BOTTOM_HALF')).toEqual([4, 5]);
    expect(mung([1, 2, 3, 4, 5], 'TOP_HALF')).toEqual([3, 2, 1]);
    expect(mung([1, 2, 3, 4, 5], 'MIDDLE_OUT')).toEqual([3, 4, 2, 5, 1]);
    expect(mung([1, 2, 3, 4], 'MIDDLE_OUT')).toEqual([3, 2, 4, 1]);
  });
  it('builds a well-formed ClientHello record', () => {
    const probe = {
      version: 'TLS_1.2' as const,
      ciphers: 'ALL' as const,
      order: 'FORWARD',
      grease: false,
      rareAlpn: false,
      support: '1.2_SUPPORT' as const,
      extOrder: 'REVERSE',
    };
    const pkt = clientHello('example.com', probe);
    expect(pkt[0]).toBe(0x16);
    expect(pkt.readUInt16BE(3)).toBe(pkt.length - 5);
    expect(pkt[5]).toBe(1); // ClientHello
    expect(pkt.readUIntBE(6, 3)).toBe(pkt.length - 9);
    expect(pkt.includes(Buffer.from('example.com'))).toBe(true);
    expect(pkt.readUInt16BE(9 + 2 + 32 + 1 + 32)).toBe(69 * 2); // 69 cipher suites
  });
  it('hashes: nothing answered is 62 zeros; answers give cipher index and version letter', () => {
    expect(jarmFuzzyHash(Array(10).fill('|||'))).toBe('0'.repeat(62));
    const h = jarmFuzzyHash(['c02f|0303|h2|ff01-0010', ...Array(9).fill('|||')]);
    expect(h.slice(0, 3)).toBe('29d'); // c02f is the 41st (0x29) cipher; 0303 -> 'd'
    expect(h.length).toBe(62);
    expect(readServerHello(Buffer.from([21, 3, 3, 0, 2, 2, 40]))).toBe('|||');
    expect(readServerHello(null)).toBe('|||');
  });
});

describe('network functions against 127.0.0.1', () => {
  let dir = '';
  let server: ChildProcess;
  let port = 0;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-jarm-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        path.join(dir, 'k.pem'),
        '-out',
        path.join(dir, 'c.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
      ],
      { stdio: 'ignore' },
    );
    const script = `const tls=require('tls'),fs=require('fs');const s=tls.createServer({key:fs.readFileSync(${JSON.stringify(path.join(dir, 'k.pem'))}),cert:fs.readFileSync(${JSON.stringify(path.join(dir, 'c.pem'))})},c=>c.end());s.listen(0,'127.0.0.1',()=>console.log(s.address().port));`;
    server = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    port = await new Promise<number>((resolve) =>
      server.stdout!.once('data', (d) => resolve(Number(String(d).trim()))),
    );
  });
  afterAll(() => {
    server?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('jarm fingerprints a local TLS server without blocking the event loop, stable across runs', async () => {
    // The synchronous path never blocks: it asks its caller to fetch the answer.
    let pending: unknown;
    try {
      evaluate(`jarm("127.0.0.1:${port}")`, {});
    } catch (err) {
      pending = err;
    }
    expect(isPendingIO(pending)).toBe(true);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const a = (await evaluateWithIO(`jarm("127.0.0.1:${port}")`, {}).finally(() => clearInterval(timer))) as string;
    expect(ticks).toBeGreaterThan(3); // the loop kept turning while the fingerprint was taken
    expect(a).toMatch(/^[0-9a-f]{62}$/);
    expect(a).not.toBe('0'.repeat(62));
    // TLS 1.2 probes are answered with a TLS 1.2 ServerHello ('d').
    expect(a[2]).toBe('d');
    const again = evaluate(`jarm(target)`, { target: `127.0.0.1:${port}` });
    expect(again).toBe(a);
  }, 60000);
  it('jarm of a closed port is all zeros', async () => {
    expect(await evaluateWithIO('jarm("127.0.0.1:1")', {})).toBe('0'.repeat(62));
  }, 60000);
  it('resolve', async () => {
    expect(await evaluateWithIO('resolve("localhost", "a")', {})).toBe('127.0.0.1');
    expect(evaluate('resolve("localhost", "a")', {})).toBe('127.0.0.1'); // cached: answered synchronously
    await expect(evaluateWithIO('resolve("localhost", "bogus")', {})).rejects.toThrow(/invalid format/);
  }, 20000);
});
