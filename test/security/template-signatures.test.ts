// Unsigned code and javascript templates on the platform: a scan refuses them (the scan log says why and
// nothing of theirs runs), a tampered copy of a signed template counts as unsigned, and only the team's
// Owner may let the team's scans run them: Members and Admins cannot flip the setting.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScanApp, MARKER_TEMPLATE, type ScanTestApp } from '../platform/scans/fixtures.ts';
import type { TestUser } from '../helpers/app.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';
import { hasShared } from '../helpers/shared.ts';
import { corpusDir } from '../helpers/templates.ts';
import { closeEngineThreads, useEngineThreads } from '../../src/platform/scans/engine-pool.ts';

const UNSIGNED_JS = `id: unsigned-js
info: {name: unsigned js, author: mallory, severity: critical}
javascript:
  - code: |
      let m = require('nuclei/net');
      m.Open('tcp', Host + ':' + Port);
    args:
      Host: "{{Host}}"
      Port: "22"
    matchers:
      - type: dsl
        dsl: [success == true]
`;

describe('unsigned code and javascript templates on the platform', { timeout: 120_000 }, () => {
  let t: ScanTestApp;
  let web: TestServer;
  let admin: TestUser;
  let member: TestUser;
  beforeAll(async () => {
    t = await createScanApp('pglite');
    admin = await t.addUser('admin-sign@example.com', 'ADMIN');
    member = await t.addUser('member-sign@example.com', 'MEMBER');
    web = await startHttpServer((_q, res) => res.end('VULNERABLE-MARKER'));
  });
  afterAll(async () => {
    await web?.close();
    await t?.close();
  });

  async function scanLog(templates: { name: string; contents: string }[]) {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [web.url], private_templates: templates },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id;
    const scan = await t.waitStatus(id, ['finished', 'failed']);
    const link = (await t.request({ method: 'GET', url: `/v1/scans/${id}/scan_log/export?format=json` })).json()
      .url as string;
    const log = JSON.parse((await t.request({ method: 'GET', url: new URL(link).pathname, key: null })).body) as {
      template_id?: string;
      error?: string;
    }[];
    return { scan, log: JSON.stringify(log) };
  }

  it('a scan refuses an unsigned javascript template and says so in its log; the signed-off rest runs', async () => {
    const { scan, log } = await scanLog([
      { name: 'unsigned.yaml', contents: UNSIGNED_JS },
      { name: 'marker.yaml', contents: MARKER_TEMPLATE },
    ]);
    expect(scan).toMatchObject({ status: 'finished', total_result: 1, total_template: 1 });
    expect(log).toContain('template not run: it is a javascript template not signed by a trusted key');
    expect(log).toContain('1 unsigned template(s) refused');
  });

  it.runIf(hasShared('corpus/nuclei-templates/javascript'))(
    'a signed corpus template with one byte changed is refused like an unsigned one',
    async () => {
      const text = readFileSync(path.join(corpusDir, 'javascript/default-logins/redis-default-logins.yaml'), 'utf8');
      const tampered = text
        .replace('Port: "6379"', 'Port: "6380"')
        .replace('id: redis-default-logins', 'id: redis-tampered');
      expect(tampered).not.toBe(text);
      const { log } = await scanLog([{ name: 'tampered.yaml', contents: tampered }]);
      expect(log).toContain('redis-tampered');
      expect(log).toContain('it is a javascript template whose signature no trusted key verifies');
    },
  );

  it('Members and Admins cannot allow unsigned templates; the Owner can, and the scan then lets it past the signature check', async () => {
    for (const who of [member, admin]) {
      const res = await t.request({
        method: 'PATCH',
        url: '/v1/user/team/settings',
        key: who.key,
        payload: { allow_unsigned_templates: true },
      });
      expect(res.statusCode, `${who.email}: ${res.body}`).toBe(403);
    }
    const read = await t.request({ method: 'GET', url: '/v1/user/team/settings', key: member.key });
    expect(read.json()).toMatchObject({
      allow_unsigned_templates: false,
      trusted_signers: ['projectdiscovery/nuclei-templates'],
    });
    // A body that is not exactly the setting is refused before anything changes.
    const odd = await t.request({
      method: 'PATCH',
      url: '/v1/user/team/settings',
      payload: { allow_unsigned_templates: 'yes please', team_id: 'other' },
    });
    expect(odd.statusCode).toBe(400);

    const owner = await t.request({
      method: 'PATCH',
      url: '/v1/user/team/settings',
      payload: { allow_unsigned_templates: true },
    });
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.json().allow_unsigned_templates).toBe(true);
    const { log } = await scanLog([{ name: 'unsigned.yaml', contents: UNSIGNED_JS }]);
    expect(log).not.toContain('not signed by a trusted key');
    expect(log).toContain('unsigned-js');

    const off = await t.request({
      method: 'PATCH',
      url: '/v1/user/team/settings',
      payload: { allow_unsigned_templates: false },
    });
    expect(off.json().allow_unsigned_templates).toBe(false);
    expect((await scanLog([{ name: 'unsigned.yaml', contents: UNSIGNED_JS }])).log).toContain(
      'not signed by a trusted key',
    );
  });
});

// `vigil serve` runs the engine on worker threads: the same refusal holds there.
describe('unsigned templates on engine threads', { timeout: 120_000 }, () => {
  let t: ScanTestApp;
  let web: TestServer;
  beforeAll(async () => {
    useEngineThreads(1);
    t = await createScanApp('pglite');
    web = await startHttpServer((_q, res) => res.end('VULNERABLE-MARKER'));
  });
  afterAll(async () => {
    await web?.close();
    await t?.close();
    await closeEngineThreads();
  });

  it('refuses the unsigned javascript template and runs the rest', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: [web.url],
        private_templates: [
          { name: 'unsigned.yaml', contents: UNSIGNED_JS },
          { name: 'marker.yaml', contents: MARKER_TEMPLATE },
        ],
      },
    });
    const id = res.json().id;
    const scan = await t.waitStatus(id, ['finished', 'failed']);
    expect(scan).toMatchObject({ status: 'finished', total_result: 1, total_template: 1 });
    const link = (await t.request({ method: 'GET', url: `/v1/scans/${id}/scan_log/export?format=json` })).json()
      .url as string;
    const log = (await t.request({ method: 'GET', url: new URL(link).pathname, key: null })).body;
    expect(log).toContain('it is a javascript template not signed by a trusted key');
  });
});
