// The assets API's rules: who may do what, team isolation, bad input (4xx with the error body, nothing
// stored), policy checks, and a retried enumeration run that stores nothing twice.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasShared, sharedDir } from '../../helpers/shared.ts';
import { importCatalogue } from '../../../src/platform/templates/catalogue.ts';
import { dbKinds } from '../../helpers/db.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { startDnsServer } from '../../helpers/dns-server.ts';
import { getJobHandler, type JobContext } from '../../../src/platform/worker/registry.ts';
import { ALERT_JOB, ENUMERATE_JOB, createAssetApp, jobsOf, otherTeamUser, type AssetTestApp } from './fixtures.ts';

describe.each(dbKinds())('assets API rules on %s', (kind) => {
  let t: AssetTestApp;
  let web: TestServer;
  let member: { key: string };
  let other: { key: string; teamId: string };
  const count = async () =>
    (await t.request({ method: 'GET', url: '/v1/asset/enumerate' })).json().total_results as number;
  const enumerate = (payload: Record<string, unknown>, key?: string) =>
    t.request({ method: 'POST', url: '/v1/asset/enumerate', payload, key });

  beforeAll(async () => {
    // No worker: runs are driven by calling the job handler, as a worker (or its retry) would.
    t = await createAssetApp(kind, { worker: false });
    web = await startHttpServer((_req, res) => res.end('<title>Local</title>'), { host: '127.0.0.4' });
    member = await t.addUser('member@localhost', 'member');
    other = await otherTeamUser(t, 'other@localhost');
  });
  afterAll(async () => {
    await t?.close();
    await web?.close();
  });

  const runJob = async (enumerationId: string, run: number) => {
    const h = getJobHandler(ENUMERATE_JOB)!;
    const ctx: JobContext = { ...t.ctx, queue: t.boss, signal: new AbortController().signal };
    return h.handler(
      { id: 'test', name: ENUMERATE_JOB, data: { enumerationId, run }, retryCount: 0, retryLimit: 2 },
      ctx,
    );
  };

  it.each([
    [{ root_domains: ['10.0.0.0/8'] }, 'root_domains[0]', /too large/],
    [{ root_domains: ['10.0.0.0/33'] }, 'root_domains[0]', /not a valid CIDR/],
    [{ root_domains: ['10.0.0.300/24'] }, 'root_domains[0]', /not a valid CIDR/],
    [{ root_domains: ['example.test', 'not a domain'] }, 'root_domains[1]', /not a domain name/],
    [{ root_domains: [] }, 'root_domains', /must NOT have fewer than 1 items|at least one/],
    [{ root_domains: ['example.test'], steps: ['dns_resolve', 'dns_magic'] }, 'steps[1]', /unknown step "dns_magic"/],
    [{ root_domains: ['example.test'], enumeration_ports: '80,70000' }, 'enumeration_ports', /out of range/],
    [{ root_domains: ['example.test'], enumeration_ports: '0' }, 'enumeration_ports', /out of range/],
    [
      { root_domains: ['example.test'], enumeration_config: { ports: 'http' } },
      'enumeration_config.ports',
      /not a number/,
    ],
    [
      { root_domains: ['example.test'], enumeration_config: { resolvers: ['dns.example:53'] } },
      'enumeration_config.resolvers[0]',
      /resolver/,
    ],
    [{ root_domains: ['example.test'], exclusions: ['10.0.0.0/99'] }, 'exclusions[0]', /not a valid CIDR/],
    [{ root_domains: ['example.test', '169.254.169.254'] }, 'root_domains[1]', /cloud metadata address/],
    [
      { root_domains: ['example.test'], enumeration_config: { resolvers: ['169.254.169.254:53'] } },
      'enumeration_config.resolvers[0]',
      /cloud metadata address/,
    ],
  ])('refuses %j (400 naming %s, nothing stored)', async (payload, param, message) => {
    const res = await enumerate(payload);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body.message).toMatch(message);
    if (!String(message).includes('fewer')) expect(body).toMatchObject({ param, code: 'invalid_request', status: 400 });
    expect(await count()).toBe(0);
    expect(await jobsOf(t, ENUMERATE_JOB)).toEqual([]);
  });

  it('an enumeration whose job cannot be queued is not stored', async () => {
    const queue = t.ctx.queue;
    t.ctx.queue = undefined;
    try {
      expect((await enumerate({ root_domains: ['example.test'] })).statusCode).toBe(500);
    } finally {
      t.ctx.queue = queue;
    }
    expect(await count()).toBe(0);
  });

  it('members and viewers can read but not create enumerations or policies; owners and admins can', async () => {
    expect((await enumerate({ root_domains: ['example.test'] }, member.key)).statusCode).toBe(403);
    const policy = await t.request({
      method: 'POST',
      url: '/v1/asset/policy',
      key: member.key,
      payload: { policy_type: 'set_label', policies: { port: '80' }, labels: ['x'] },
    });
    expect(policy.statusCode).toBe(403);
    expect(policy.json()).toMatchObject({ code: 'forbidden' });
    expect(await count()).toBe(0);
    expect((await t.request({ method: 'GET', url: '/v1/asset/policy' })).json().total).toBe(0);
    expect((await t.request({ method: 'GET', url: '/v1/asset/enumerate', key: member.key })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/v1/asset/policy', key: member.key })).statusCode).toBe(200);
    const admin = await t.addUser('admin@localhost', 'admin');
    const made = await enumerate(
      { root_domains: ['127.0.0.4'], enumeration_ports: String(web.port), name: 'by admin' },
      admin.key,
    );
    expect(made.statusCode, made.body).toBe(200);
    expect(
      (await t.request({ method: 'DELETE', url: `/v1/asset/enumerate/${made.json().id}`, key: member.key })).statusCode,
    ).toBe(403);
    expect(
      (await t.request({ method: 'POST', url: `/v1/asset/enumerate/${made.json().id}/rescan`, key: member.key }))
        .statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/v1/asset/enumerate/${made.json().id}` })).statusCode).toBe(200);
  });

  it('a retried run stores nothing twice; another team sees none of it', async () => {
    const made = await enumerate({
      root_domains: ['127.0.0.4/32'],
      enumeration_ports: String(web.port),
      steps: ['port_scan', 'http_probe'],
    });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().id as string;
    const hook = await t.request({
      method: 'POST',
      url: '/v1/scans/config',
      payload: {
        name: 'policy-hook',
        config_type: 'alerting',
        config: 'provider: webhook\nevents: [asset_policy_match]\nwebhook:\n  url: http://127.0.0.1:9/hook\n',
      },
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const policy = await t.request({
      method: 'POST',
      url: '/v1/asset/policy',
      payload: {
        policy_type: 'alert',
        policies: { title: 'local' },
        alerting_config_ids: [hook.json().id],
        enumeration_ids: [id],
      },
    });
    expect(policy.statusCode, policy.body).toBe(200);
    const policyId = policy.json().id as string;

    expect(await runJob(id, 1)).toEqual({ outcome: 'stored' });
    // The same job again (a worker died after storing, pg-boss retried it): nothing doubles.
    expect(await runJob(id, 1)).toEqual({ outcome: 'stored' });
    const list = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents` })).json();
    expect(list.data.map((a: any) => a.name)).toEqual([`http://127.0.0.4:${web.port}/`]);
    expect(list.data[0]).toMatchObject({ title: 'Local', status_code: 200, is_new: true });
    const assetId = list.data[0].id;
    const logs = (await t.request({ method: 'GET', url: `/v1/asset/${assetId}/changelogs` })).json();
    expect(logs.data.map((c: any) => c.event_type)).toEqual(['appeared']);
    expect((await t.request({ method: 'GET', url: `/v1/asset/policy/${policyId}/events` })).json().total).toBe(1);
    expect((await jobsOf(t, ALERT_JOB)).length).toBe(1);
    // A job for a run that is no longer the current one does nothing.
    expect(await runJob(id, 7)).toEqual({ outcome: 'superseded' });

    // Team isolation: the other team gets 404s and empty lists, and cannot name these in a scan.
    const o = { key: other.key };
    expect((await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}`, ...o })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents`, ...o })).statusCode).toBe(404);
    expect((await t.request({ method: 'POST', url: `/v1/asset/enumerate/${id}/rescan`, ...o })).statusCode).toBe(404);
    expect(
      (await t.request({ method: 'PATCH', url: `/v1/asset/enumerate/${id}`, payload: { name: 'x' }, ...o })).statusCode,
    ).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/v1/asset/enumerate/${id}`, ...o })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/asset/${assetId}/changelogs`, ...o })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/asset/policy/${policyId}`, ...o })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/asset/policy/${policyId}/events`, ...o })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/v1/asset/policy/${policyId}`, ...o })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/v1/asset/enumerate', ...o })).json().total_results).toBe(0);
    expect((await t.request({ method: 'GET', url: '/v1/asset/enumerate/contents', ...o })).json().total_results).toBe(
      0,
    );
    expect((await t.request({ method: 'GET', url: '/v1/asset/policy', ...o })).json().total).toBe(0);
    const tpl = [
      {
        name: 'x.yaml',
        contents:
          'id: x\ninfo:\n  name: x\n  author: v\n  severity: info\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}"]\n',
      },
    ];
    const scan = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { enumeration_ids: [{ id }], private_templates: tpl },
      ...o,
    });
    expect(scan.statusCode).toBe(400);
    expect(scan.json()).toMatchObject({ param: 'enumeration_ids[0].id' });
    const byAsset = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { assets: [String(assetId)], private_templates: tpl },
      ...o,
    });
    expect(byAsset.json()).toMatchObject({ param: 'assets[0]' });
    const all = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { scan_all_assets: true, private_templates: tpl },
      ...o,
    });
    expect(all.json()).toMatchObject({ message: 'the scan has no targets' });
    // The owner's scan over the asset id resolves to its URL.
    const mine = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { assets: [String(assetId)], private_templates: tpl },
    });
    expect(mine.statusCode, mine.body).toBe(200);
    expect((await t.request({ method: 'GET', url: `/v1/scans/${mine.json().id}/config` })).json().targets).toEqual([
      `http://127.0.0.4:${web.port}`,
    ]);
  });

  it('technologies come from fingerprint templates run by the engine (a private template here)', async () => {
    const tpl =
      'id: local-tech\ninfo:\n  name: Local tech\n  author: vigil\n  severity: info\n  tags: tech\nhttp:\n  - method: GET\n    path:\n      - "{{BaseURL}}"\n    matchers-condition: or\n    matchers:\n      - type: word\n        name: localcms\n        words: ["<title>Local</title>"]\n      - type: word\n        name: never-there\n        words: ["zzzz-not-present"]\n';
    const made = await t.request({
      method: 'POST',
      url: '/v1/template',
      payload: { template: tpl, filename: 'local-tech.yaml' },
    });
    expect(made.statusCode, made.body).toBe(200);
    const res = await enumerate({
      root_domains: ['127.0.0.4'],
      enumeration_ports: String(web.port),
      enumeration_config: { technology_templates: ['local-tech'] },
    });
    const id = res.json().id;
    await runJob(id, 1);
    const list = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents` })).json();
    expect(list.data[0].technologies).toEqual(['localcms']);
    expect(
      (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents?technologies=LocalCMS` })).json()
        .total_results,
    ).toBe(1);
    // By default the catalogue's tech-detect runs; this database has no catalogue, and the run says so.
    const plain = await enumerate({ root_domains: ['127.0.0.4'], enumeration_ports: String(web.port) });
    await runJob(plain.json().id, 1);
    const data = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${plain.json().id}` })).json().data;
    expect(data.notices.join('\n')).toMatch(/technology templates skipped: .*tech-detect/);
    await t.request({ method: 'DELETE', url: `/v1/asset/enumerate/${id}` });
    await t.request({ method: 'DELETE', url: `/v1/asset/enumerate/${plain.json().id}` });
  });

  it.skipIf(!hasShared('corpus/nuclei-templates'))(
    "the catalogue's tech-detect names the technologies of a web asset",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'vigil-tech-'));
      const server = await startHttpServer(
        (_req, res) => {
          res.setHeader('Server', 'nginx/1.25.3');
          res.setHeader('X-Powered-By', 'PHP/8.2.1');
          res.end(
            '<html><title>tech</title><a href="https://www.atlassian.com/software/jira">Project Management Software</a></html>',
          );
        },
        { host: '127.0.0.5' },
      );
      try {
        mkdirSync(path.join(dir, 'http/technologies'), { recursive: true });
        copyFileSync(
          path.join(sharedDir, 'corpus/nuclei-templates/http/technologies/tech-detect.yaml'),
          path.join(dir, 'http/technologies/tech-detect.yaml'),
        );
        await importCatalogue(t.ctx.db, dir);
        const res = await enumerate({ root_domains: ['127.0.0.5'], enumeration_ports: String(server.port) });
        await runJob(res.json().id, 1);
        const list = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${res.json().id}/contents` })).json();
        // "nginx" and "PHP" from the headers themselves (tech-detect names them too: kept once); the page's
        // Jira only from tech-detect's body matcher.
        expect(list.data[0].technologies.map((x: string) => x.toLowerCase()).sort()).toEqual([
          'atlassian-jira',
          'nginx',
          'php',
        ]);
        const data = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${res.json().id}` })).json().data;
        expect(data.notices).toEqual([]);
        await t.request({ method: 'DELETE', url: `/v1/asset/enumerate/${res.json().id}` });
      } finally {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it("automatic_vuln_scans: a scan of the run's new web assets, or a notice when it cannot start", async () => {
    const none = await enumerate({
      root_domains: ['127.0.0.4'],
      enumeration_ports: String(web.port),
      automatic_vuln_scans: true,
      enumeration_config: { technology_templates: [] },
    });
    await runJob(none.json().id, 1);
    const data = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${none.json().id}` })).json().data;
    expect(data.notices).toEqual(['automatic vulnerability scan not started: the scan has no templates']);
    await t.request({ method: 'DELETE', url: `/v1/asset/enumerate/${none.json().id}` });

    // With a recommended template in the catalogue, the new assets are scanned once per run.
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-rec-'));
    try {
      mkdirSync(path.join(dir, 'http/misconfiguration'), { recursive: true });
      writeFileSync(
        path.join(dir, 'http/misconfiguration/rec.yaml'),
        'id: rec-check\ninfo:\n  name: rec\n  author: vigil\n  severity: medium\n  tags: misconfig\nhttp:\n  - method: GET\n    path:\n      - "{{BaseURL}}/rec"\n    matchers:\n      - type: status\n        status: [200]\n',
      );
      await importCatalogue(t.ctx.db, dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const made = await enumerate({
      name: 'auto',
      root_domains: ['127.0.0.4'],
      enumeration_ports: String(web.port),
      automatic_vuln_scans: true,
      enumeration_config: { technology_templates: [] },
    });
    const id = made.json().id;
    await runJob(id, 1);
    await runJob(id, 1); // a retry does not start a second scan
    const scans = (await t.request({ method: 'GET', url: '/v1/scans?search=auto' })).json().data;
    expect(scans.length).toBe(1);
    expect(scans[0]).toMatchObject({ name: 'auto: new assets (run 1)', is_automatic: true, total_target: 1 });
    const cfg = (await t.request({ method: 'GET', url: `/v1/scans/${scans[0].scan_id}/config` })).json();
    expect(cfg.targets).toEqual([`http://127.0.0.4:${web.port}`]);
    // A rescan that finds nothing new starts no scan.
    await t.request({ method: 'POST', url: `/v1/asset/enumerate/${id}/rescan` });
    await runJob(id, 2);
    expect((await t.request({ method: 'GET', url: '/v1/scans?search=auto' })).json().data.length).toBe(1);
    await t.request({ method: 'DELETE', url: `/v1/asset/enumerate/${id}` });
  });

  it.skipIf(!existsSync('/usr/bin/chromium'))(
    'http_screenshot stores a PNG served to the team only',
    async () => {
      const made = await enumerate({
        root_domains: ['127.0.0.4'],
        enumeration_ports: String(web.port),
        steps: ['port_scan', 'http_probe', 'http_screenshot'],
        enumeration_config: { technology_templates: [] },
      });
      const id = made.json().id;
      await runJob(id, 1);
      const list = (
        await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents?is_screenshot=true` })
      ).json();
      expect(list.total_results).toBe(1);
      const png = await t.request({ method: 'GET', url: `/v1/asset/${list.data[0].id}/screenshot` });
      expect(png.statusCode).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
      expect(png.rawPayload.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect(
        (await t.request({ method: 'GET', url: `/v1/asset/${list.data[0].id}/screenshot`, key: other.key })).statusCode,
      ).toBe(404);
      await t.request({ method: 'DELETE', url: `/v1/asset/enumerate/${id}` });
    },
    60_000,
  );

  it('http_screenshot without a browser is skipped with a notice', async () => {
    process.env.VIGIL_CHROMIUM = '/nonexistent/chromium';
    try {
      const made = await enumerate({
        root_domains: ['127.0.0.4'],
        enumeration_ports: String(web.port),
        steps: ['port_scan', 'http_probe', 'http_screenshot'],
        enumeration_config: { technology_templates: [] },
      });
      const id = made.json().id;
      await runJob(id, 1);
      const data = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}` })).json().data;
      expect(data).toMatchObject({
        status: 'finished',
        total_assets: 1,
        notices: ["http_screenshot skipped: no browser at /nonexistent/chromium (install Debian's chromium)"],
      });
      const list = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents` })).json();
      expect(list.data[0].is_screenshot).toBe(false);
      expect((await t.request({ method: 'GET', url: `/v1/asset/${list.data[0].id}/screenshot` })).statusCode).toBe(404);
      await t.request({ method: 'DELETE', url: `/v1/asset/enumerate/${id}` });
    } finally {
      delete process.env.VIGIL_CHROMIUM;
    }
  });

  it('delete and remove_label policies act on the assets a run finds', async () => {
    const made = await enumerate({
      root_domains: ['127.0.0.4'],
      enumeration_ports: String(web.port),
      enumeration_config: { technology_templates: [] },
    });
    const id = made.json().id;
    const policy = async (payload: Record<string, unknown>) => {
      const res = await t.request({
        method: 'POST',
        url: '/v1/asset/policy',
        payload: { enumeration_ids: [id], ...payload },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as string;
    };
    const tag = await policy({ policy_type: 'set_label', policies: { status_code: '200' }, labels: ['keep', 'drop'] });
    const untag = await policy({ policy_type: 'remove_label', policies: { labels: 'drop' }, labels: ['drop'] });
    await runJob(id, 1);
    let list = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents` })).json();
    // Policies run in creation order: the label set by the first is removed by the second.
    expect(list.data[0].labels).toEqual(['keep']);
    for (const p of [tag, untag])
      expect((await t.request({ method: 'GET', url: `/v1/asset/policy/${p}/events` })).json().total).toBe(1);

    const del = await policy({ policy_type: 'delete', policies: { labels: 'keep', title: 'local' } });
    // A rescan that changes nothing gives the policies nothing to act on: the asset stays.
    await t.request({ method: 'POST', url: `/v1/asset/enumerate/${id}/rescan` });
    await runJob(id, 2);
    expect((await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents` })).json().total_results).toBe(
      1,
    );
    // Turned on for existing assets, it deletes the matching one at once and says so.
    await t.request({ method: 'PATCH', url: `/v1/asset/policy/${del}`, payload: { apply_to_existing: true } });
    list = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents` })).json();
    expect(list.total_results).toBe(0);
    const ev = (await t.request({ method: 'GET', url: `/v1/asset/policy/${del}/events` })).json();
    expect(ev.total).toBe(1);
    expect(ev.data.events[0]).toMatchObject({
      event_type: 'asset_policy_applied',
      status: 'succeeded',
      message_payload: { policy_type: 'delete' },
    });
    for (const p of [tag, untag, del]) await t.request({ method: 'DELETE', url: `/v1/asset/policy/${p}` });
    await t.request({ method: 'DELETE', url: `/v1/asset/enumerate/${id}` });
  });

  it('dns_passive in an enumeration: keys from provider_config and subfinder configs, sources from VIGIL_PASSIVE_<SOURCE>_URL', async () => {
    const a = [{ type: 'A', data: '127.0.0.4' }];
    const dns = await startDnsServer({ records: { 'a.passive.test': a, 'b.passive.test': a, 'vt.passive.test': a } });
    const seenKeys: string[] = [];
    const src = await startHttpServer((req, res) => {
      if (req.url!.startsWith('/crt'))
        return res.end(
          JSON.stringify([{ name_value: 'a.passive.test\n*.b.passive.test' }, { name_value: 'gone.passive.test' }]),
        );
      if (req.url!.startsWith('/ht')) return res.end('b.passive.test,127.0.0.4\nother.example,1.2.3.4\n');
      if (req.url!.startsWith('/otx')) {
        res.statusCode = 503;
        return res.end();
      }
      if (req.url!.startsWith('/vt')) {
        seenKeys.push(String(req.headers['x-apikey']));
        return res.end(JSON.stringify({ data: [{ id: 'vt.passive.test' }] }));
      }
      res.statusCode = 404;
      res.end();
    });
    const env = { CRTSH: '/crt', HACKERTARGET: '/ht', ALIENVAULT: '/otx', VIRUSTOTAL: '/vt' };
    for (const [k, v] of Object.entries(env)) process.env[`VIGIL_PASSIVE_${k}_URL`] = src.url + v;
    try {
      const made = await t.request({
        method: 'POST',
        url: '/v1/asset/enumerate',
        payload: {
          root_domains: ['passive.test'],
          steps: ['dns_passive', 'dns_resolve'],
          subfinder_config_ids: ['sf-1'],
          enumeration_config: { resolvers: [dns.resolver], provider_config: 'virustotal:\n  - vt-key\n' },
        },
      });
      expect(made.statusCode, made.body).toBe(200);
      const id = made.json().id;
      await runJob(id, 1);
      const list = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents` })).json();
      expect(list.data.map((a: any) => a.host).sort()).toEqual(['a.passive.test', 'b.passive.test', 'vt.passive.test']);
      expect(list.data.find((a: any) => a.host === 'vt.passive.test').source).toEqual([
        { source: 'dns_passive:virustotal', metadata: {} },
      ]);
      expect(seenKeys).toEqual(['vt-key']);
      const data = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}` })).json().data;
      expect(data.enumeration_config).toMatchObject({ provider_config: '****', subfinder_config_ids: ['sf-1'] });
      expect(data.notices.sort()).toEqual([
        'dns_passive: source alienvault skipped: it answered HTTP 503',
        'dns_passive: source securitytrails skipped: no key configured (provider config "securitytrails")',
        'dns_passive: subfinder config sf-1 not found; its keys are not used',
      ]);
      expect(
        JSON.stringify((await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}`, key: member.key })).json()),
      ).not.toContain('vt-key');

      // An edit of other settings that sends the shown config back (the mask included, as the console
      // does) keeps the stored keys and the subfinder configs; [] removes the subfinder configs.
      const stored = async () =>
        (
          await t.ctx.db.query<{ c: Record<string, unknown> }>(
            'SELECT enumeration_config AS c FROM asset_enumerations WHERE id = $1',
            [id],
          )
        ).rows[0]!.c;
      const { subfinder_config_ids: _sf, ...shown } = data.enumeration_config;
      const edited = await t.request({
        method: 'PATCH',
        url: `/v1/asset/enumerate/${id}`,
        payload: { enumeration_config: { ...shown, timeout: 4 } },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(await stored()).toMatchObject({
        provider_config: 'virustotal:\n  - vt-key\n',
        subfinder_config_ids: ['sf-1'],
        timeout: 4,
      });
      expect(
        (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}` })).json().data.enumeration_config,
      ).toMatchObject({ provider_config: '****', timeout: 4 });
      await t.request({
        method: 'PATCH',
        url: `/v1/asset/enumerate/${id}`,
        payload: {
          enumeration_config: { ...shown, provider_config: 'virustotal:\n  - vt-key-2\n' },
          subfinder_config_ids: [],
        },
      });
      const after = await stored();
      expect(after.provider_config).toBe('virustotal:\n  - vt-key-2\n');
      expect(after).not.toHaveProperty('subfinder_config_ids');
      await t.request({ method: 'DELETE', url: `/v1/asset/enumerate/${id}` });
    } finally {
      for (const k of Object.keys(env)) delete process.env[`VIGIL_PASSIVE_${k}_URL`];
      await src.close();
      await dns.close();
    }
  });

  it('checks policies: type, conditions, labels, alert configs, enumerations; update modes; delete', async () => {
    const post = (payload: Record<string, unknown>) => t.request({ method: 'POST', url: '/v1/asset/policy', payload });
    // An alerting config that does not listen to asset_policy_match would never send the policy's alerts.
    const scanHook = await t.request({
      method: 'POST',
      url: '/v1/scans/config',
      payload: {
        name: 'scan-only-hook',
        config_type: 'alerting',
        config: 'provider: webhook\nevents: [scan_finished]\nwebhook:\n  url: http://127.0.0.1:9/hook\n',
      },
    });
    expect(scanHook.statusCode, scanHook.body).toBe(200);
    const deaf = await post({
      policy_type: 'alert',
      policies: { port: '80' },
      alerting_config_ids: [scanHook.json().id],
    });
    expect(deaf.statusCode).toBe(400);
    expect(deaf.json().message).toMatch(/"scan-only-hook" does not receive asset_policy_match events/);
    const listed = (await t.request({ method: 'GET', url: `/v1/scans/config/${scanHook.json().id}` })).json();
    expect(listed.events).toEqual(['scan_finished']);
    const cases: [Record<string, unknown>, string][] = [
      [{ policy_type: 'alert', policies: { port: '80' }, alerting_config_ids: ['nope'] }, 'alerting_config_ids[0]'],
      [{ policy_type: 'explode', policies: { port: '80' } }, 'policy_type'],
      [{ policy_type: 'set_label', policies: {} }, 'policies'],
      [{ policy_type: 'set_label', policies: { port: '80' } }, 'labels'],
      [{ policy_type: 'alert', policies: { port: '80' } }, 'alerting_config_ids'],
      [{ policy_type: 'delete', policies: { port: 'eighty' } }, 'policies.port'],
      [{ policy_type: 'delete', policies: { port: '80' }, enumeration_ids: ['nope'] }, 'enumeration_ids[0]'],
      [{ policy_type: 'delete', policies: { port: '80', custom_filter: 'x' } }, 'policies.custom_filter'],
    ];
    const before = (await t.request({ method: 'GET', url: '/v1/asset/policy' })).json().total;
    for (const [payload, param] of cases) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().param).toBe(param);
    }
    expect((await post({ policy_type: 'delete', policies: { port: '80' }, bogus: 1 })).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/v1/asset/policy' })).json().total).toBe(before);

    const made = await post({ name: 'tagger', policy_type: 'set_label', policies: { port: '8080' }, labels: ['a'] });
    const id = made.json().id;
    await t.request({ method: 'PATCH', url: `/v1/asset/policy/${id}`, payload: { labels: ['b'] } });
    expect((await t.request({ method: 'GET', url: `/v1/asset/policy/${id}` })).json().data.labels).toEqual(['a', 'b']);
    await t.request({
      method: 'PATCH',
      url: `/v1/asset/policy/${id}?update_type=replace`,
      payload: { policy_type: 'set_label', policies: { port: '443' }, labels: ['c'] },
    });
    const got = (await t.request({ method: 'GET', url: `/v1/asset/policy/${id}` })).json().data;
    expect(got).toMatchObject({
      name: 'tagger',
      labels: ['c'],
      policies: { port: '443' },
      policy_type: 'set_label',
      apply_to_existing: false,
    });
    const badPatch = await t.request({
      method: 'PATCH',
      url: `/v1/asset/policy/${id}?update_type=replace`,
      payload: { policy_type: 'set_label', policies: { port: '443' } },
    });
    expect(badPatch.statusCode).toBe(400);
    expect((await t.request({ method: 'DELETE', url: `/v1/asset/policy/${id}` })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/v1/asset/policy/${id}` })).statusCode).toBe(404);
  });

  it('apply_to_existing labels the assets already stored; update and list enumerations', async () => {
    const assetsNow = (await t.request({ method: 'GET', url: '/v1/asset/enumerate/contents' })).json();
    expect(assetsNow.total_results).toBeGreaterThan(0);
    const res = await t.request({
      method: 'POST',
      url: '/v1/asset/policy',
      payload: { policy_type: 'set_label', policies: { title: 'Local' }, labels: ['web'], apply_to_existing: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const labelled = (await t.request({ method: 'GET', url: '/v1/asset/enumerate/contents?labels=web' })).json();
    expect(labelled.total_results).toBe(assetsNow.total_results);
    const events = (await t.request({ method: 'GET', url: `/v1/asset/policy/${res.json().id}/events` })).json();
    expect(events.total).toBe(assetsNow.total_results);

    const list = (await t.request({ method: 'GET', url: '/v1/asset/enumerate?sort_asc=name' })).json();
    const id = list.data[0].id;
    expect(
      (
        await t.request({
          method: 'PATCH',
          url: `/v1/asset/enumerate/${id}`,
          payload: { name: 'renamed', enumeration_ports: '99999' },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await t.request({ method: 'PATCH', url: `/v1/asset/enumerate/${id}`, payload: { name: 'renamed' } })).statusCode,
    ).toBe(200);
    expect((await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}` })).json().data.name).toBe('renamed');
    expect((await t.request({ method: 'GET', url: '/v1/asset/enumerate?search=renamed' })).json().total_results).toBe(
      1,
    );
    expect((await t.request({ method: 'GET', url: '/v1/asset/enumerate?status=bogus' })).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/v1/asset/enumerate?sort_desc=secret' })).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/v1/asset/abc/changelogs' })).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/v1/asset/999999/changelogs' })).statusCode).toBe(404);
  });
});
