// nuclei/ldap against Debian's slapd on 127.0.0.1, started by the test with its own configuration in a
// temporary folder: one that allows anonymous binds and one that refuses them (`disallow bind_anon`).
// Skipped with a message when slapd is not installed (apt-get install slapd). The corpus's LDAP
// templates name port 389 in their URL, so they run in the lab (test/lab/javascript.test.ts), inside a
// network namespace of their own.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTemplateScript } from '../../../../src/engine/protocols/javascript/script.ts';
import { installed, startService, type Service } from '../../../helpers/services.ts';

const SLAPD = '/usr/sbin/slapd';
const have = installed(SLAPD) && installed('/usr/sbin/slapadd');
if (!have) console.warn('skipping the ldap module tests: slapd is not installed (apt-get install slapd)');

const ROOT_PW = 'vigil-test-secret';

/** A slapd configuration (slapd.conf style) with one database holding dc=vigil,dc=test and one person. */
function configure(dir: string, extra: string[]): string {
  mkdirSync(path.join(dir, 'db'), { recursive: true });
  const conf = path.join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      'include /etc/ldap/schema/core.schema',
      `pidfile ${dir}/slapd.pid`,
      `argsfile ${dir}/slapd.args`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      ...extra,
      'database mdb',
      'suffix "dc=vigil,dc=test"',
      'rootdn "cn=admin,dc=vigil,dc=test"',
      `rootpw ${ROOT_PW}`,
      `directory ${dir}/db`,
    ].join('\n') + '\n',
  );
  writeFileSync(
    path.join(dir, 'data.ldif'),
    [
      'dn: dc=vigil,dc=test',
      'objectClass: dcObject',
      'objectClass: organization',
      'o: Vigil test',
      'dc: vigil',
      '',
      'dn: cn=alice,dc=vigil,dc=test',
      'objectClass: person',
      'cn: alice',
      'sn: Example',
      '',
    ].join('\n'),
  );
  const add = spawnSync('/usr/sbin/slapadd', ['-f', conf, '-l', path.join(dir, 'data.ldif')], { encoding: 'utf8' });
  if (add.status !== 0) throw new Error(`slapadd failed: ${add.stderr}`);
  return conf;
}

const run = (code: string, port: number, host = '127.0.0.1') =>
  runTemplateScript(code, {
    args: { Url: `ldap://${host}:${port}`, Port: String(port) },
    template: {},
    targetHost: '127.0.0.1',
    callTimeoutMs: 3000,
    timeoutMs: 15_000,
  });

describe.skipIf(!have)('nuclei/ldap', () => {
  let dir: string;
  let open: Service;
  let closed: Service;
  let notLdap: net.Server;
  let notLdapPort = 0;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-slapd-'));
    const a = configure(path.join(dir, 'open'), []);
    const b = configure(path.join(dir, 'closed'), ['disallow bind_anon']);
    open = await startService(SLAPD, ['-d', '0', '-f', a, '-h', 'ldap://127.0.0.1:{port}/']);
    closed = await startService(SLAPD, ['-d', '0', '-f', b, '-h', 'ldap://127.0.0.1:{port}/']);
    notLdap = net.createServer((s) => {
      s.on('error', () => {});
      s.end('220 not ldap\r\n');
    });
    await new Promise<void>((r) => notLdap.listen(0, '127.0.0.1', () => r()));
    notLdapPort = (notLdap.address() as net.AddressInfo).port;
  }, 30_000);
  afterAll(() => {
    open?.stop();
    closed?.stop();
    notLdap?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('anonymous bind and metadata as the corpus template does it (realm from the Port arg)', async () => {
    const out = await run(
      `let ldap = require('nuclei/ldap'); let cfg = ldap.Config(); cfg.Upgrade = true;
       let client = ldap.Client(Url, Port, cfg); client.Authenticate('', ''); Export(client.CollectMetadata());`,
      open.port,
    );
    expect(out.error).toBeUndefined();
    expect(out.success).toBe(true);
    expect(JSON.parse(String(out.response))).toEqual({
      BaseDN: `dc=${open.port}`,
      Domain: String(open.port),
      DefaultNamingContext: '',
      DomainFunctionality: '',
      ForestFunctionality: '',
      DomainControllerFunctionality: '',
      DnsHostName: '',
    });
  });

  it('a server that refuses anonymous binds makes Authenticate("", "") throw', async () => {
    const out = await run(
      `let ldap = require('nuclei/ldap'); let c = new ldap.Client(Url, Port); c.Authenticate('', ''); Export(c.CollectMetadata());`,
      closed.port,
    );
    expect(out.success).toBe(false);
    expect(out.error).toMatch(/anonymous bind disallowed|inappropriate/i);
  });

  it('a simple bind: the right password binds, a wrong one and a name that is no DN throw', async () => {
    const bind = (user: string, pw: string) =>
      run(
        `const ldap = require('nuclei/ldap'); const c = new ldap.Client(Url, 'vigil.test'); c.Authenticate(${JSON.stringify(user)}, ${JSON.stringify(pw)})`,
        closed.port,
      );
    const good = await bind('cn=admin,dc=vigil,dc=test', ROOT_PW);
    expect(good.response).toBe(true);
    const wrong = await bind('cn=admin,dc=vigil,dc=test', 'nope');
    expect(wrong.error).toMatch(/invalid credentials|0x31/i);
    const admin = await bind('admin', 'admin');
    expect(admin.error).toMatch(/invalid DN|0x22/i);
  });

  it('searches under the realm: AdvancedSearch and FindADObjects return Go-named entries; GetVersion', async () => {
    const out = await run(
      `const ldap = require('nuclei/ldap'); const c = new ldap.Client(Url, 'vigil.test');
       c.Authenticate('cn=admin,dc=vigil,dc=test', '${ROOT_PW}');
       const r = c.AdvancedSearch(2, 0, 0, 0, false, '(objectClass=person)', ['cn', 'sn'], []);
       to_json({ base: c.BaseDN, realm: c.Realm, r, ad: c.FindADObjects('(cn=alice)').Entries.map((e) => e.DN),
         versions: c.GetVersion(), filter: ldap.JoinFilters(ldap.FilterIsPerson, ldap.NegativeFilter('(cn=x)')) })`,
      open.port,
    );
    expect(out.error).toBeUndefined();
    const v = JSON.parse(String(out.response));
    expect(v.base).toBe('dc=vigil,dc=test');
    expect(v.realm).toBe('vigil.test');
    expect(v.r.Entries).toHaveLength(1);
    expect(v.r.Entries[0].DN).toBe('cn=alice,dc=vigil,dc=test');
    expect(v.r.Entries[0].Attributes.Extra).toEqual({ cn: ['alice'], sn: ['Example'] });
    expect(v.ad).toEqual(['cn=alice,dc=vigil,dc=test']);
    expect(v.versions).toEqual(['3']);
    expect(v.filter).toBe('(&(objectCategory=person)(!(cn=x)))');
  });

  it('nuclei’s argument checks and decoders', async () => {
    const empty = await run(`require('nuclei/ldap').Client(Url, '')`, open.port);
    expect(empty.error).toMatch(/realm cannot be empty/);
    const ldapi = await run(`require('nuclei/ldap').Client('ldapi:///var/run/slapd/ldapi', 'x')`, open.port);
    expect(ldapi.error).toMatch(/ldapi:\/\/ .* refused/);
    const ts = await run(
      `const l = require('nuclei/ldap'); [l.DecodeADTimestamp('132036744000000000'), l.DecodeADTimestamp('0'), l.DecodeZuluTimestamp('2021-08-25T10:00:00Z')].join('|')`,
      open.port,
    );
    expect(ts.response).toBe('2019-05-30 7:20:0 am|Not Set|2021-08-25 10:0:0 am');
  });

  it('a server that is not LDAP: the bind fails, nothing hangs', async () => {
    const out = await run(
      `const ldap = require('nuclei/ldap'); const c = new ldap.Client(Url, 'x'); c.Authenticate('', '')`,
      notLdapPort,
    );
    expect(out.success).toBe(false);
    expect(out.error).toBeTruthy();
  });
});
