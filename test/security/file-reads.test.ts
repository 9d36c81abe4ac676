// A scan or an uploaded template can never read the server's files: the names users give templates are
// labels, and payload files are refused for template text. The attack this replays sent /etc/passwd and
// the server's environment (keys, DATABASE_URL) line by line to a target of the attacker's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';

const template = (payload: string) => `id: exfil
info:
  name: exfil
  author: attacker
  severity: info
http:
  - method: GET
    path:
      - "{{BaseURL}}/?p={{p}}"
    payloads:
      p: ${payload}
    matchers:
      - type: status
        status: [200]
`;

describe('user templates never touch the server filesystem', () => {
  let t: TestApp;
  let sink: TestServer;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    sink = await startHttpServer((_req, res) => res.end('ok'));
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  const names = ['/etc/hostname', 'package.json', `${process.cwd()}/package.json`, '../../etc/hostname'];
  const payloads = ['/etc/passwd', '../proc/self/environ', '../../../../proc/self/environ', 'package.json'];

  it('POST /v1/scans refuses payload files in private templates, whatever name the template claims', async () => {
    for (const name of names) {
      for (const p of payloads) {
        const res = await t.request({
          method: 'POST',
          url: '/v1/scans',
          payload: { targets: [sink.url], private_templates: [{ name, contents: template(p) }] },
        });
        expect(res.statusCode, `${name} ${p}`).toBe(400);
        expect(res.json().message).toContain('may only use inline payload lists');
        expect(res.json().param).toBe('private_templates[0].contents');
      }
    }
    expect(sink.requests).toHaveLength(0);
    // Inline payload lists still work.
    const ok = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: [sink.url],
        private_templates: [{ name: '/etc/hostname', contents: template('[a, b]') }],
        schedule_only: true,
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('POST /v1/template refuses them too, with any filename', async () => {
    for (const filename of names) {
      for (const p of payloads) {
        const res = await t.request({
          method: 'POST',
          url: '/v1/template',
          payload: { template: template(p), filename },
        });
        expect(res.statusCode, `${filename} ${p}: ${res.body}`).toBe(400);
        expect(res.body).toContain('may only use inline payload lists');
      }
    }
    const stored = await t.ctx.db.query("SELECT count(*)::int AS n FROM templates WHERE template_id = 'exfil'");
    expect(stored.rows[0]).toEqual({ n: 0 });
  });
});
