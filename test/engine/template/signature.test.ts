// Template signatures: ProjectDiscovery's signed corpus verifies with its public certificate, a one-byte
// change does not, an operator's certificate adds a signer, and scans refuse unsigned code/javascript
// templates unless allowed (and every unsigned template with nuclei's -dut).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasDigest, PD_SIGNER, TemplateSigners } from '../../../src/engine/template/signature.ts';
import { runScan, type ScanOptions } from '../../../src/engine/runner.ts';
import type { Template } from '../../../src/engine/template/types.ts';
import { makeCert } from '../../helpers/certs.ts';
import { hasShared } from '../../helpers/shared.ts';
import { corpusDir, corpusTemplate, tpl } from '../../helpers/templates.ts';
import { makeSigningKey, signTemplate, type SigningKey } from '../../helpers/template-signing.ts';

const JS = `id: js-probe
info: {name: js probe, author: a, severity: info}
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
const HTTP = `id: http-probe
info: {name: http probe, author: a, severity: info}
http:
  - method: GET
    path: ["{{BaseURL}}/"]
    matchers:
      - type: status
        status: [200]
`;

function parse(text: string): Template {
  return tpl(text);
}

async function refusals(templates: Template[], extra: Partial<ScanOptions> = {}) {
  const skipped: [string, string][] = [];
  const stats = await runScan({
    targets: ['127.0.0.1:9'],
    templates,
    timeout: 1,
    retries: 0,
    onResult: () => {},
    onTemplateSkipped: (id, reason) => skipped.push([id, reason]),
    ...extra,
  });
  return { stats, skipped };
}

let operator: SigningKey;
beforeAll(() => {
  operator = makeSigningKey('acme-security/templates');
});

describe.runIf(hasShared('corpus/nuclei-templates'))('ProjectDiscovery signatures on the corpus', () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(e.name)) files.push(p);
    }
  };

  it('every template with ProjectDiscovery’s digest verifies; digests of other keys do not', () => {
    walk(corpusDir);
    const signers = new TemplateSigners();
    let pd = 0;
    let verified = 0;
    const failed: string[] = [];
    const otherKeys: string[] = [];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      if (!hasDigest(text)) continue;
      const s = signers.verify(text);
      if (text.trimEnd().endsWith(':922c64590222798bb761d5b6d8e72950')) {
        pd++;
        if (s.state === 'verified' && s.signer === PD_SIGNER) verified++;
        else failed.push(f);
      } else {
        if (s.state !== 'unverified') failed.push(f);
        otherKeys.push(path.relative(corpusDir, f));
      }
    }
    // The corpus snapshot: 10,360 templates signed with ProjectDiscovery's key, 5 with other keys.
    expect(failed).toEqual([]);
    expect(pd).toBeGreaterThan(10_000);
    expect(verified).toBe(pd);
    expect(otherKeys.length).toBeLessThan(20);
  });

  it('a one-byte change anywhere in the signed text fails; so does a changed digest', () => {
    const text = readFileSync(path.join(corpusDir, 'javascript/default-logins/redis-default-logins.yaml'), 'utf8');
    const signers = new TemplateSigners();
    expect(signers.verify(text)).toEqual({ state: 'verified', signer: PD_SIGNER });
    const at = text.indexOf('severity:') + 'severity: '.length;
    const flipped = text.slice(0, at) + String.fromCharCode(text.charCodeAt(at) ^ 1) + text.slice(at + 1);
    expect(signers.verify(flipped).state).toBe('unverified');
    expect(signers.verify(text.replace('Port', 'Poru')).state).toBe('unverified');
    const digestAt = text.lastIndexOf('# digest: ') + 30;
    const badDigest = text.slice(0, digestAt) + (text[digestAt] === '0' ? '1' : '0') + text.slice(digestAt + 1);
    expect(signers.verify(badDigest).state).toBe('unverified');
    // Line endings are not content: CRLF copies of a signed LF file verify, as in nuclei.
    expect(signers.verify(text.replace(/\n/g, '\r\n')).state).toBe('verified');
    // A digest line that is not the last thing in the file is not a signature of what follows it.
    expect(signers.verify(`${text}\nhttp: []\n`).state).toBe('unverified');
  });

  it('a signed corpus javascript template is not refused; the same text unsigned is', async () => {
    const signed = corpusTemplate('javascript/default-logins/redis-default-logins.yaml');
    const text = readFileSync(path.join(corpusDir, 'javascript/default-logins/redis-default-logins.yaml'), 'utf8');
    const unsigned = parse(
      text.slice(0, text.lastIndexOf('# digest: ')).replace('id: redis-default-logins', 'id: copy'),
    );
    const { stats, skipped } = await refusals([signed, unsigned]);
    expect(stats.refusedUnsigned).toBe(1);
    expect(skipped).toContainEqual(['copy', 'it is a javascript template not signed by a trusted key']);
    expect(skipped.find(([id]) => id === 'redis-default-logins')?.[1] ?? '').not.toMatch(/signed/);
  });
});

describe('operator certificates and the scan policy', () => {
  it('an operator’s certificate adds a signer, named by its common name', () => {
    const text = signTemplate(JS, operator);
    expect(new TemplateSigners().verify(text).state).toBe('unverified');
    expect(new TemplateSigners([operator.cert]).verify(text)).toEqual({
      state: 'verified',
      signer: 'acme-security/templates',
    });
    // Another key's signature over the same text does not pass for the operator's.
    const other = makeSigningKey('someone-else');
    expect(new TemplateSigners([operator.cert]).verify(signTemplate(JS, other)).state).toBe('unverified');
  });

  it('a certificate without a common name or an EC key, or no certificate at all, is refused with the reason', () => {
    expect(() => new TemplateSigners(['hello'])).toThrow(/certificate 1: not a certificate/);
    const rsa = makeCert({ subject: '/CN=rsa-signer' }).cert;
    expect(() => new TemplateSigners([operator.cert, rsa])).toThrow(/certificate 2: .*ECDSA/);
    const noName = makeCert({ subject: '/O=Nameless' }).cert;
    expect(() => new TemplateSigners([noName])).toThrow(/common name/);
  });

  it('{{randstr}} is filled in after the check: the signature covers the text as written', () => {
    const text = signTemplate(JS.replace('js probe', 'js probe {{randstr}}'), operator);
    const t = parse(text);
    expect(t.raw).not.toContain('{{randstr}}');
    expect(new TemplateSigners([operator.cert]).verify(t.source ?? t.raw).state).toBe('verified');
  });

  it('unsigned code/javascript templates are refused and counted; allowUnsigned runs them; http ones are untouched', async () => {
    const js = parse(JS);
    const http = parse(HTTP);
    const refused = await refusals([js, http]);
    expect(refused.stats.refusedUnsigned).toBe(1);
    expect(refused.stats.templates).toBe(1);
    expect(refused.skipped).toEqual([['js-probe', 'it is a javascript template not signed by a trusted key']]);

    const allowed = await refusals([js, http], { allowUnsigned: true });
    expect(allowed.stats.refusedUnsigned).toBe(0);
    expect(allowed.skipped.every(([, r]) => !/signed/.test(r))).toBe(true);
  });

  it('a template signed by the operator’s key runs when that certificate is trusted, not otherwise', async () => {
    const signed = parse(signTemplate(JS, operator));
    expect((await refusals([signed])).skipped).toEqual([
      ['js-probe', 'it is a javascript template whose signature no trusted key verifies'],
    ]);
    const trusted = await refusals([signed], { trustedCertificates: [operator.cert] });
    expect(trusted.stats.refusedUnsigned).toBe(0);
  });

  it('disableUnsigned (-dut) refuses every template no trusted key signed, http too', async () => {
    const http = parse(HTTP);
    const signedHttp = parse(signTemplate(HTTP.replace('http-probe', 'signed-http'), operator));
    const { stats, skipped } = await refusals([http, signedHttp], {
      disableUnsigned: true,
      trustedCertificates: [operator.cert],
    });
    expect(stats.refusedUnsigned).toBe(1);
    expect(skipped).toEqual([['http-probe', 'it is not signed by a trusted key (unsigned templates are disabled)']]);
  });
});
