// The asset operations together, on two real `vigil serve` processes sharing one PostgreSQL database:
// assets labelled by a policy and by hand, grouped by their labels, a scan of the group finding what it
// should, an enumeration schedule running once per slot across both processes, and the inventory exported
// with its labels.
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { spawnVigil } from '../../helpers/process.ts';
import { waitFor } from '../../helpers/queue.ts';
import { startHttpServer } from '../../helpers/targets.ts';
import { createProbe, loopPasses, useProcessLab } from '../monitor/process-lab.ts';

const SHOP_TEMPLATE = `id: shop-page
info: {name: Shop page, author: vigil, severity: low}
http:
  - method: GET
    path: ["{{BaseURL}}/"]
    matchers: [{type: word, words: ["Shop front"]}]
`;

describe.runIf(!!process.env.TEST_DATABASE_URL)(
  'labels, groups, a group scan, an enumeration schedule and exports',
  () => {
    const lab = useProcessLab('vigil-issue27-');
    const { key, env, procs } = lab;

    it('works end to end across two processes', async () => {
      const shop = await startHttpServer((_req, res) => res.end('<title>Shop</title>Shop front'), {
        host: '127.0.0.17',
      });
      const admin = await startHttpServer((_req, res) => res.end('<title>Admin</title>'), { host: '127.0.0.18' });
      try {
        const a = spawnVigil(['serve', '--port', '0'], env);
        const b = spawnVigil(['serve', '--port', '0'], env);
        procs.push(a, b);
        const [urlA, urlB] = await Promise.all([a.listening(150_000), b.listening(150_000)]);
        const api = async (base: string, method: string, p: string, body?: unknown) => {
          const res = await fetch(`${base}${p}`, {
            method,
            body: body === undefined ? undefined : JSON.stringify(body),
            headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          });
          const text = await res.text();
          let json: any;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          return { status: res.status, json, text };
        };

        // The inventory: two web assets.
        const made = await api(urlA, 'POST', '/v1/asset/enumerate', {
          name: 'story',
          root_domains: ['127.0.0.17', '127.0.0.18'],
          enumeration_ports: `${shop.port},${admin.port}`,
          steps: ['port_scan', 'http_probe'],
          enumeration_config: { technology_templates: [] },
        });
        expect(made.status, made.text).toBe(200);
        const enumId = made.json.id as string;
        const finished = (rescans: number) =>
          waitFor(
            async () => {
              const d = (await api(urlB, 'GET', `/v1/asset/enumerate/${enumId}`)).json.data;
              return d.status === 'finished' && d.rescan_count === rescans && d;
            },
            90_000,
            200,
          );
        expect(await finished(0)).toMatchObject({ total_assets: 2 });

        // Labels: by a policy (the shop, by its title) and by hand (the admin page).
        const policy = await api(urlA, 'POST', '/v1/asset/policy', {
          name: 'pci scope',
          policy_type: 'set_label',
          policies: { title: 'Shop' },
          labels: ['pci'],
          apply_to_existing: true,
        });
        expect(policy.status, policy.text).toBe(200);
        const adminAsset = (await api(urlB, 'GET', '/v1/asset/enumerate/contents?title=Admin')).json.data[0];
        expect((await api(urlB, 'POST', `/v1/asset/${adminAsset.id}/labels`, { labels: ['internal'] })).status).toBe(
          200,
        );
        const labelled = (await api(urlA, 'GET', '/v1/asset/enumerate/contents?labels=pci,internal')).json.data;
        expect(labelled.map((x: any) => [x.title, x.labels])).toEqual(
          expect.arrayContaining([
            ['Shop', ['pci']],
            ['Admin', ['internal']],
          ]),
        );

        // A group of the pci assets, scanned: the scan runs over the shop only and finds its page.
        const group = await api(urlA, 'POST', '/v1/asset/enumerate/group', { name: 'pci', filters: { labels: 'pci' } });
        expect(group.status, group.text).toBe(200);
        const scan = await api(urlB, 'POST', '/v1/scans', {
          assets: [group.json.id],
          private_templates: [{ name: 'shop.yaml', contents: SHOP_TEMPLATE }],
        });
        expect(scan.status, scan.text).toBe(200);
        const done = await waitFor(
          async () => {
            const s = (await api(urlA, 'GET', `/v1/scans/${scan.json.id}`)).json;
            return s.status === 'finished' && s;
          },
          90_000,
          200,
        );
        expect(done.total_result).toBe(1);
        const targets = (await api(urlA, 'GET', `/v1/scans/${scan.json.id}/config`)).json.targets;
        expect(targets).toEqual([`http://127.0.0.17:${shop.port}`]);
        const scanAssets = (await api(urlA, 'GET', `/v1/scans/${scan.json.id}/asset/export`)).json;
        expect(scanAssets).toEqual([
          { asset: `http://127.0.0.17:${shop.port}`, host: '127.0.0.17', port: shop.port, total_results: 1 },
        ]);

        // An hourly enumeration schedule, due after a long downtime: one rescan between both processes.
        const set = await api(urlB, 'POST', '/v1/enumeration/schedule', {
          enumeration_id: enumId,
          scan_frequency: 'hourly',
        });
        expect(set.status, set.text).toBe(200);
        const probe = await createProbe(lab, urlA);
        const db = await lab.db();
        await db.query(
          `UPDATE enumeration_schedules SET schedule_next_run = now() - interval '3 days' WHERE enumeration_id = $1`,
          [enumId],
        );
        await finished(1);
        await loopPasses(lab, probe, [a, b]);
        await loopPasses(lab, probe, [a, b]);
        const history = (await api(urlA, 'GET', `/v1/asset/enumerate/${enumId}/history`)).json;
        expect(history.data.map((h: any) => [h.run, h.status])).toEqual([
          [2, 'finished'],
          [1, 'finished'],
        ]);

        // The inventory exported, labels and all (they outlive the rescan).
        const csv = await api(urlA, 'GET', '/v1/asset/enumerate/export?format=csv');
        expect(csv.status).toBe(200);
        const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
        expect(rows.map((r) => [r.title, r.labels]).sort()).toEqual([
          ['Admin', 'internal'],
          ['Shop', 'pci'],
        ]);
        const pciOnly = (await api(urlB, 'GET', `/v1/asset/enumerate/${enumId}/export?format=raw&labels=pci`)).text;
        expect(pciOnly).toBe(`http://127.0.0.17:${shop.port}/\n`);
      } finally {
        await Promise.all([shop.close(), admin.close()]);
      }
    }, 400_000);
  },
);
