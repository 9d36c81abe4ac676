// The template store shows who signed each template: corpus templates imported into the catalogue are
// signed by projectdiscovery/nuclei-templates, a tampered copy and a private upload without a digest are
// not; an operator certificate (VIGIL_TEMPLATE_CERTIFICATES) names its own signer, and the stored rows are
// checked again when the trusted certificates change.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { hasShared } from '../../helpers/shared.ts';
import { corpusDir } from '../../helpers/templates.ts';
import { makeSigningKey, signTemplate } from '../../helpers/template-signing.ts';
import { importCatalogue } from '../../../src/platform/templates/catalogue.ts';
import { certificatesFromEnv, setTemplateCertificates } from '../../../src/platform/templates/signing.ts';
import { recheckSignatures } from '../../../src/platform/templates/signature-recheck.ts';

const PRIVATE = `id: private-probe
info: {name: private probe, author: a, severity: info}
http:
  - method: GET
    path: ["{{BaseURL}}/"]
    matchers:
      - type: status
        status: [200]
`;

describe.runIf(hasShared('corpus/nuclei-templates/javascript')).each(dbKinds())(
  'template signatures in the store (%s)',
  (kind) => {
    let t: TestApp;
    let dir: string;
    const key = makeSigningKey('acme/private-templates');
    beforeAll(async () => {
      setTemplateCertificates([]);
      t = await createTestApp(kind);
      dir = mkdtempSync(path.join(tmpdir(), 'vigil-signed-'));
      mkdirSync(path.join(dir, 'javascript'));
      const redis = readFileSync(path.join(corpusDir, 'javascript/default-logins/redis-default-logins.yaml'), 'utf8');
      writeFileSync(path.join(dir, 'javascript/redis-default-logins.yaml'), redis);
      // One byte changed in the signed text: the digest no longer holds.
      writeFileSync(
        path.join(dir, 'javascript/tampered.yaml'),
        redis.replace('id: redis-default-logins', 'id: redis-default-loginz'),
      );
      cpSync(path.join(corpusDir, 'dns/mx-fingerprint.yaml'), path.join(dir, 'mx-fingerprint.yaml'));
      writeFileSync(path.join(dir, 'acme.yaml'), signTemplate(PRIVATE.replace('private-probe', 'acme-probe'), key));
      await importCatalogue(t.ctx.db, dir);
    });
    afterAll(async () => {
      await t?.close();
      rmSync(dir, { recursive: true, force: true });
      setTemplateCertificates([]);
    });

    const publicRecord = async (id: string) => {
      const res = await t.request({ method: 'GET', url: `/v1/template/public/${id}?fields=id,is_signed,signed_by` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().template;
    };

    it('catalogue records say whether a trusted key signed them, and whose', async () => {
      expect(await publicRecord('redis-default-logins')).toMatchObject({
        is_signed: true,
        signed_by: 'projectdiscovery/nuclei-templates',
      });
      expect(await publicRecord('mx-fingerprint')).toMatchObject({ is_signed: true });
      const tampered = await publicRecord('redis-default-loginz');
      expect(tampered.is_signed).toBe(false);
      expect(tampered.signed_by).toBeUndefined();
      // Signed by a key nobody trusts yet.
      expect((await publicRecord('acme-probe')).is_signed).toBe(false);
    });

    it('search results carry is_signed and signed_by', async () => {
      const res = await t.request({
        method: 'GET',
        url: '/v2/template/search?q=redis&fields=id,is_signed,signed_by&scope=public',
      });
      expect(res.statusCode, res.body).toBe(200);
      const byId = Object.fromEntries(res.json().results.map((r: { id: string }) => [r.id, r]));
      expect(byId['redis-default-logins']).toMatchObject({
        is_signed: true,
        signed_by: 'projectdiscovery/nuclei-templates',
      });
      expect(byId['redis-default-loginz']).toMatchObject({ is_signed: false });
    });

    it('a private template without a digest is unsigned; one signed by a trusted operator key names it', async () => {
      const plain = await t.request({ method: 'POST', url: '/v1/template', payload: { template: PRIVATE } });
      expect(plain.statusCode, plain.body).toBe(200);
      expect(plain.json().template).toMatchObject({ is_signed: false });
      setTemplateCertificates([key.cert]);
      const signed = await t.request({
        method: 'POST',
        url: '/v1/template',
        payload: { template: signTemplate(PRIVATE.replace('private-probe', 'acme-private'), key) },
      });
      expect(signed.json().template).toMatchObject({ is_signed: true, signed_by: 'acme/private-templates' });
    });

    it('stored rows are checked again when the trusted certificates change', async () => {
      setTemplateCertificates([key.cert]);
      expect(await recheckSignatures(t.ctx.db)).toBeGreaterThanOrEqual(1);
      expect(await publicRecord('acme-probe')).toMatchObject({ is_signed: true, signed_by: 'acme/private-templates' });
      // Nothing left to do under the same certificates.
      expect(await recheckSignatures(t.ctx.db)).toBe(0);
      setTemplateCertificates([]);
      await recheckSignatures(t.ctx.db);
      expect((await publicRecord('acme-probe')).is_signed).toBe(false);
      expect((await publicRecord('redis-default-logins')).is_signed).toBe(true);
    });

    it('VIGIL_TEMPLATE_CERTIFICATES: files that are certificates are read; anything else stops with the file named', () => {
      const crt = path.join(dir, 'acme.crt');
      writeFileSync(crt, key.cert);
      expect(certificatesFromEnv({ VIGIL_TEMPLATE_CERTIFICATES: crt })).toEqual([key.cert]);
      expect(() => certificatesFromEnv({ VIGIL_TEMPLATE_CERTIFICATES: path.join(dir, 'missing.crt') })).toThrow(
        /cannot read .*missing\.crt/,
      );
      expect(() => certificatesFromEnv({ VIGIL_TEMPLATE_CERTIFICATES: path.join(dir, 'acme.yaml') })).toThrow(
        /certificate 1: not a certificate/,
      );
    });
  },
);
