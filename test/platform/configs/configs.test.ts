// Named configurations through the API: each type's validation (a 400 naming the key, nothing stored),
// CRUD, what Members see, read-only and global configs, other teams, and configs really applied to scans.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/db.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { createScanApp, MARKER_TEMPLATE, HEADER_TEMPLATE, type ScanTestApp } from '../scans/fixtures.ts';
import * as authStore from '../../../src/platform/auth/store.ts';
import { issueKey } from '../../../src/platform/auth/service.ts';

/** A template that sends the scan variable {{token}} in its path and matches when the server saw it. */
const VAR_TEMPLATE = `id: test-var
info:
  name: Var echo
  author: vigil
  severity: low
  tags: vars
http:
  - method: GET
    path:
      - "{{BaseURL}}/echo/{{token}}"
    matchers:
      - type: word
        words:
          - "GOT-secret-value-1"
`;

const VALID: Record<string, string> = {
  scan: 'rate-limit: 7\nconcurrency: 3\ntimeout: 5\nretries: 0\nvar:\n  - token=abc\ntags: [a]\n',
  template: 'tags: [cve]\nseverities: [high, critical]\nexclude-ids: [http/cves/2020]\n',
  alerting: 'provider: webhook\nevents: [scan_finished]\nwebhook:\n  url: http://127.0.0.1:9/hook\n',
  reporting: 'github:\n  owner: acme\n  project-name: web\n  token: ghp_x\n',
  cloudlist: '- provider: aws\n  aws_access_key: AK\n  aws_secret_key: SK\n',
  subfinder: 'shodan: [k1, k2]\nvirustotal: [k3]\n',
  remediation: 'retest-interval: 12h\n',
  vuln_score: 'rules:\n  - tag: cve\n    severity: critical\n',
};

/** [type, yaml, param of the 400] */
const INVALID: [string, string, string][] = [
  ['scan', 'rate-limit: fast\n', 'config.rate-limit'],
  ['scan', 'concurrency: 0\n', 'config.concurrency'],
  ['scan', 'rate_limit: 5\n', 'config.rate_limit'],
  ['scan', 'header:\n  - "no colon here"\n', 'config.header[0]'],
  ['scan', 'var: ["=x"]\n', 'config.var[0]'],
  ['scan', 'proxy: http://proxy:8080\n', 'config.proxy'],
  ['scan', 'severity: [urgent]\n', 'config.severity[0]'],
  ['scan', '- a\n- b\n', 'config'],
  ['scan', 'a: [1, 2\n', 'config'],
  ['template', 'exclude-tags: [dos]\n', 'config.ids'],
  ['template', 'ids: [a]\nfolder: [b]\n', 'config.folder'],
  ['alerting', 'events: [scan_finished]\n', 'config.provider'],
  ['alerting', 'provider: pager\nevents: [scan_finished]\n', 'config.provider'],
  ['alerting', 'provider: webhook\nevents: [scan_finished]\n', 'config.webhook'],
  ['alerting', 'provider: webhook\nevents: [scan_done]\nwebhook: {url: "http://x/"}\n', 'config.events[0]'],
  ['alerting', 'provider: webhook\nevents: [scan_finished]\nwebhook: {url: "ftp://x/"}\n', 'config.webhook.url'],
  [
    'alerting',
    'provider: webhook\nevents: [scan_finished]\nwebhook: {url: "http://x/", method: GET}\n',
    'config.webhook.method',
  ],
  ['alerting', 'provider: slack\nevents: [new_finding]\nslack: {channel: "#x"}\n', 'config.slack.webhook-url'],
  [
    'alerting',
    'provider: teams\nevents: [new_finding]\nteams: {webhook-url: "http://x/", extra: 1}\n',
    'config.teams.extra',
  ],
  [
    'alerting',
    'provider: email\nevents: [scan_failed]\nemail: {host: h, port: 70000, from: a@b, to: [c@d]}\n',
    'config.email.port',
  ],
  [
    'alerting',
    'provider: email\nevents: [scan_failed]\nemail: {host: h, port: 25, from: a@b, to: []}\n',
    'config.email.to',
  ],
  [
    'alerting',
    'provider: webhook\nevents: [new_finding]\nmin-severity: severe\nwebhook: {url: "http://x/"}\n',
    'config.min-severity',
  ],
  ['reporting', 'allow-list: {severity: [high]}\n', 'config'],
  ['reporting', 'github: {owner: a, project-name: b}\n', 'config.github.token'],
  [
    'reporting',
    'gitlab: {project-name: b, token: t}\njira: {url: "http://j/", project-name: X, token: t}\n',
    'config.jira',
  ],
  ['reporting', 'jira: {url: "http://j/", project-name: X, token: t, priority: 1}\n', 'config.jira.priority'],
  ['reporting', 'linear: {api-key: k}\n', 'config.linear.team-id'],
  ['reporting', 'gitea: {project-owner: o, project-name: n, token: t}\n', 'config.gitea.base-url'],
  ['cloudlist', 'provider: aws\n', 'config'],
  ['cloudlist', '- provider: moon\n', 'config[0].provider'],
  ['cloudlist', '- provider: aws\n  aws_access_key: AK\n', 'config[0].aws_secret_key'],
  ['cloudlist', '- provider: do\n  digitalocean_token: t\n  region: x\n', 'config[0].region'],
  ['subfinder', 'shodan: k1\n', 'config.shodan'],
  ['subfinder', 'nosuchsource: [k]\n', 'config.nosuchsource'],
  ['remediation', 'retest-interval: soon\n', 'config.retest-interval'],
  ['remediation', '{}\n', 'config.retest-interval'],
  ['vuln_score', 'rules: []\n', 'config.rules'],
  ['vuln_score', 'rules:\n  - severity: high\n', 'config.rules[0]'],
  ['vuln_score', 'rules:\n  - tag: x\n    severity: extreme\n', 'config.rules[0].severity'],
];

describe.each(dbKinds())('named configurations on %s', (kind) => {
  let t: ScanTestApp;
  let target: TestServer;
  const seen: string[] = [];

  beforeAll(async () => {
    t = await createScanApp(kind, { egressAllow: ['127.0.0.0/8'] });
    target = await startHttpServer((req, res) => {
      seen.push(req.url ?? '');
      res.setHeader('X-Powered-By', 'PHP/7.4.3');
      if (req.url === '/vuln') return res.end('VULNERABLE-MARKER');
      const m = /^\/echo\/(.*)$/.exec(req.url ?? '');
      res.end(m ? `GOT-${decodeURIComponent(m[1]!)}` : 'hi');
    });
  });
  afterAll(async () => {
    await t?.close();
    await target?.close();
  });

  const create = (payload: Record<string, unknown>, key?: string) =>
    t.request({ method: 'POST', url: '/v1/scans/config', payload, key });
  const count = async () =>
    Number((await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM configs')).rows[0]!.n);

  it('accepts a valid config of every type', async () => {
    for (const [type, config] of Object.entries(VALID)) {
      const res = await create({ name: `valid ${type}`, config_type: type, config });
      expect(res.statusCode, `${type}: ${res.body}`).toBe(200);
      expect(res.json()).toMatchObject({ message: expect.any(String), id: expect.any(String) });
    }
  });

  it('refuses every invalid config with a 400 naming the key, storing nothing', async () => {
    const before = await count();
    for (const [type, config, param] of INVALID) {
      const res = await create({ name: 'bad', config_type: type, config });
      expect(res.statusCode, `${type} ${config}`).toBe(400);
      expect(res.json(), `${type} ${config}`).toMatchObject({ param, status: 400, code: 'invalid_request' });
    }
    for (const [payload, param] of [
      [{ name: 'x', config_type: 'magic', config: 'a: 1' }, 'config_type'],
      [{ name: 'x', config: 'a: 1' }, 'config_type'],
      [{ name: '  ', config_type: 'scan', config: 'retries: 1' }, 'name'],
      [{ config_type: 'scan', config: 'retries: 1' }, 'name'],
      [{ name: 'x', config_type: 'scan' }, 'config'],
      [{ name: 'x', config_type: 'scan', config: 'retries: 1', unknown: true }, 'unknown'],
    ] as [Record<string, unknown>, string][]) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().param).toBe(param);
    }
    // The YAML error says where, without echoing the text.
    const broken = await create({
      name: 'x',
      config_type: 'alerting',
      config: 'provider: webhook\nwebhook: {url: "http://s3cr3t@x/"\n',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/line \d+/);
    expect(broken.json().message).not.toContain('s3cr3t');
    expect(await count()).toBe(before);
  });

  it('lists as a bare array with type, search, limit and offset; reads, changes and deletes', async () => {
    const ids: string[] = [];
    for (const n of ['alpha-one', 'alpha-two', 'beta']) {
      ids.push((await create({ name: `${n}-${kind}`, config_type: 'scan', config: 'retries: 1\n' })).json().id);
    }
    const all = await t.request({ method: 'GET', url: '/v1/scans/config' });
    expect(all.statusCode).toBe(200);
    expect(Array.isArray(all.json())).toBe(true);
    const scans = (await t.request({ method: 'GET', url: '/v1/scans/config?type=scan' })).json();
    expect(scans.every((c: { config_type: string }) => c.config_type === 'scan')).toBe(true);
    const search = (await t.request({ method: 'GET', url: `/v1/scans/config?search=alpha-&type=scan` })).json();
    expect(search.map((c: { name: string }) => c.name).sort()).toEqual([`alpha-one-${kind}`, `alpha-two-${kind}`]);
    const page = (await t.request({ method: 'GET', url: `/v1/scans/config?search=alpha-&limit=1&offset=1` })).json();
    expect(page).toHaveLength(1);
    const bad = await t.request({ method: 'GET', url: '/v1/scans/config?type=nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().param).toBe('type');

    const one = (await t.request({ method: 'GET', url: `/v1/scans/config/${ids[0]}` })).json();
    expect(one).toMatchObject({
      id: ids[0],
      name: `alpha-one-${kind}`,
      config_type: 'scan',
      config: 'retries: 1\n',
      read_only: false,
      global: false,
    });
    expect(one.created_at).toMatch(/^\d{4}-/);
    const asJson = (await t.request({ method: 'GET', url: `/v1/scans/config/${ids[0]}?config_json=true` })).json();
    expect(JSON.parse(asJson.config)).toEqual({ retries: 1 });

    const patched = await t.request({
      method: 'PATCH',
      url: `/v1/scans/config/${ids[0]}`,
      payload: { config: 'retries: 3\n', name: 'renamed' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await t.request({ method: 'GET', url: `/v1/scans/config/${ids[0]}` })).json()).toMatchObject({
      config: 'retries: 3\n',
      name: 'renamed',
    });
    const badPatch = await t.request({
      method: 'PATCH',
      url: `/v1/scans/config/${ids[0]}`,
      payload: { config: 'retries: lots\n' },
    });
    expect(badPatch.statusCode).toBe(400);
    expect(badPatch.json().param).toBe('config.retries');
    expect((await t.request({ method: 'GET', url: `/v1/scans/config/${ids[0]}` })).json().config).toBe('retries: 3\n');

    expect((await t.request({ method: 'DELETE', url: `/v1/scans/config/${ids[2]}` })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/v1/scans/config/${ids[2]}` })).statusCode).toBe(404);
  });

  it('read-only configs cannot change; Members see names and types, never the text; other teams see nothing', async () => {
    const ro = (
      await create({ name: 'locked', config_type: 'reporting', config: VALID.reporting, read_only: true })
    ).json().id;
    expect(
      (await t.request({ method: 'PATCH', url: `/v1/scans/config/${ro}`, payload: { name: 'x' } })).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/v1/scans/config/${ro}` })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/v1/scans/config/${ro}` })).json()).toMatchObject({
      name: 'locked',
      read_only: true,
    });

    const member = await t.addUser(`cfg-member-${kind}@localhost`, 'member');
    const list = await t.request({ method: 'GET', url: '/v1/scans/config', key: member.key });
    expect(list.statusCode).toBe(200);
    expect(list.json().length).toBeGreaterThan(0);
    expect(list.body).not.toContain('ghp_x');
    for (const c of list.json()) expect(c.config).toBe('');
    const one = await t.request({ method: 'GET', url: `/v1/scans/config/${ro}`, key: member.key });
    expect(one.json()).toMatchObject({ name: 'locked', config_type: 'reporting', provider_name: 'github', config: '' });
    expect((await create({ name: 'm', config_type: 'scan', config: 'retries: 1' }, member.key)).statusCode).toBe(403);

    const teamId = `cfg-other-${kind}`;
    await authStore.insertTeam(t.ctx.db, teamId, 'Other');
    const u = await authStore.insertUser(t.ctx.db, `cfg-other-${kind}@localhost`, teamId);
    await authStore.insertMember(t.ctx.db, teamId, u.id, 'OWNER', true);
    const other = await issueKey(t.ctx.db, u.id);
    expect((await t.request({ method: 'GET', url: `/v1/scans/config/${ro}`, key: other })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/v1/scans/config', key: other })).json()).toEqual([]);
    const patch = await t.request({
      method: 'PATCH',
      url: `/v1/scans/config/${ro}`,
      key: other,
      payload: { name: 'mine' },
    });
    expect(patch.statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/v1/scans/config/${ro}`, key: other })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/scans/config/${ro}/deliveries`, key: other })).statusCode).toBe(
      404,
    );
    expect((await t.request({ method: 'GET', url: `/v1/scans/config/${ro}` })).json().name).toBe('locked');
    // A scan of the other team cannot reference this team's configs.
    const scan = await t.request({
      method: 'POST',
      url: '/v1/scans',
      key: other,
      payload: {
        targets: [target.url],
        private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
        reporting_config_ids: [ro],
        schedule_only: true,
      },
    });
    expect(scan.statusCode).toBe(400);
    expect(scan.json().param).toBe('reporting_config_ids[0]');
  });

  it('applies scan configs (settings, variables, tag filters), globals unless disabled, and resolves references', async () => {
    const scanCfg = (
      await create({
        name: 'fast',
        config_type: 'scan',
        config:
          'rate-limit: 33\nconcurrency: 4\nvar:\n  - token=secret-value-1\nexclude-tags: [tech]\nheader:\n  - "X-Scan-Token: hdr-s3cr3t-value"\n',
      })
    ).json().id;
    const global = (
      await create({
        name: 'global retries',
        config_type: 'scan',
        config: 'retries: 2\nmax-host-error: 9\n',
        global: true,
      })
    ).json().id;
    const templates = [
      { name: 'v.yaml', contents: VAR_TEMPLATE },
      { name: 'h.yaml', contents: HEADER_TEMPLATE }, // tag tech: excluded by the config
      { name: 'm.yaml', contents: MARKER_TEMPLATE },
    ];
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [target.url], private_templates: templates, scan_config_ids: [scanCfg] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id;
    const done = await t.waitStatus(id, ['finished', 'failed']);
    expect(done).toMatchObject({ status: 'finished', total_template: 2, total_result: 2 });
    expect(seen).toContain('/echo/secret-value-1');
    const row = (
      await t.ctx.db.query<{ engine_options: Record<string, unknown> }>(
        'SELECT engine_options FROM scans WHERE id = $1',
        [id],
      )
    ).rows[0]!;
    expect(row.engine_options).toMatchObject({
      rateLimit: 33,
      concurrency: 4,
      retries: 2,
      maxHostErrors: 9,
      vars: { token: 'secret-value-1' },
    });
    const results = (await t.request({ method: 'GET', url: `/v1/scans/results?scan_id=${id}` })).json();
    expect(results.data.map((r: { template_id: string }) => r.template_id).sort()).toEqual(['test-marker', 'test-var']);
    // The config's header went out on every request, and is redacted from the stored request dumps.
    const fromScan = target.requests.filter((r) => r.url === '/vuln' || r.url.startsWith('/echo/'));
    expect(fromScan.length).toBeGreaterThanOrEqual(2);
    expect(fromScan.every((r) => r.headers['x-scan-token'] === 'hdr-s3cr3t-value')).toBe(true);
    expect(JSON.stringify(results.data)).toContain('X-Scan-Token');
    expect(JSON.stringify(results.data)).not.toContain('hdr-s3cr3t-value');

    const cfg = (await t.request({ method: 'GET', url: `/v1/scans/${id}/config` })).json();
    expect(cfg.scan_config_ids).toEqual([
      { id: scanCfg, name: 'fast', config_type: 'scan', provider_name: '' },
      { id: global, name: 'global retries', config_type: 'scan', provider_name: '' },
    ]);

    // With disable_global_scan_config the global one does not apply.
    const res2 = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: [target.url],
        private_templates: templates,
        scan_config_ids: [scanCfg],
        disable_global_scan_config: true,
        schedule_only: true,
      },
    });
    const row2 = (
      await t.ctx.db.query<{ engine_options: Record<string, unknown> }>(
        'SELECT engine_options FROM scans WHERE id = $1',
        [res2.json().id],
      )
    ).rows[0]!;
    expect(row2.engine_options.retries).toBe(1);
    expect(row2.engine_options.maxHostErrors).toBeUndefined();
    expect(
      (await t.request({ method: 'GET', url: `/v1/scans/${res2.json().id}/config` }))
        .json()
        .scan_config_ids.map((c: { id: string }) => c.id),
    ).toEqual([scanCfg]);

    // Unknown or wrongly typed references are a 400 naming them.
    const bad = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [target.url], private_templates: templates, scan_config_ids: [scanCfg, 'nope'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().param).toBe('scan_config_ids[1]');
    const alertId = (await create({ name: 'a', config_type: 'alerting', config: VALID.alerting })).json().id;
    const wrong = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [target.url], private_templates: templates, scan_config_ids: [alertId] },
    });
    expect(wrong.json().param).toBe('scan_config_ids[0]');
    await t.request({ method: 'PATCH', url: `/v1/scans/config/${global}`, payload: { global: false } });
  }, 60_000);

  it('a template config selects private templates by tag and severity for the scans that name it', async () => {
    for (const [name, body] of [
      ['marker', MARKER_TEMPLATE],
      ['header', HEADER_TEMPLATE],
    ]) {
      const r = await t.request({
        method: 'POST',
        url: '/v1/template',
        payload: { template: body!.replace(/^id: test-/m, `id: tc-${kind}-`), filename: `${name}.yaml` },
      });
      expect([200, 201], r.body).toContain(r.statusCode);
    }
    const tplCfg = (
      await create({
        name: 'high marker',
        config_type: 'template',
        config: 'tags: [marker, tech]\nexclude-severities: [info]\n',
      })
    ).json().id;
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [target.url], scan_config_ids: [tplCfg] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const done = await t.waitStatus(res.json().id, ['finished', 'failed']);
    expect(done).toMatchObject({ status: 'finished', total_template: 1, total_result: 1 });
    const cfg = (await t.request({ method: 'GET', url: `/v1/scans/${res.json().id}/config` })).json();
    expect(cfg.template_ids).toEqual([`tc-${kind}-marker`]);
    expect(cfg.scan_config_ids[0]).toMatchObject({ id: tplCfg, config_type: 'template', name: 'high marker' });
  }, 60_000);
});
