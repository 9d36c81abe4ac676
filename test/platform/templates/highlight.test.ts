// highlight=true returns HTML: the stored text escaped, matched words in <em>...</em>. A template whose
// name and description carry markup must come back inert.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { escapeHtml, renderHighlight, MARK_START, MARK_STOP } from '../../../src/platform/templates/highlight.ts';
import { templateText } from './fixtures.ts';

describe('renderHighlight', () => {
  it('escapes the five HTML special characters and turns only the markers into <em>', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(renderHighlight(`a <b>${MARK_START}word${MARK_STOP}</b> & "c"`, true)).toBe(
      'a &lt;b&gt;<em>word</em>&lt;/b&gt; &amp; &quot;c&quot;',
    );
    // Unmarked text: stray marker characters are dropped, never turned into tags.
    expect(renderHighlight(`x${MARK_START}y${MARK_STOP}<i>`, false)).toBe('xy&lt;i&gt;');
  });
});

describe.each(dbKinds())('search highlight escaping on %s', (kind) => {
  let t: TestApp;
  // YAML double-quoted strings: \uE000 puts a marker character into the stored text itself.
  const name = `Shop <script>alert('x')</script> & "Panel" \\uE000fake\\uE001`;
  const description = 'Finds the <b>shop</b> admin panel & its <img src=x onerror=alert(1)> login.';

  beforeAll(async () => {
    t = await createTestApp(kind);
    const text = templateText({ id: 'shop-panel', author: 'me', severity: 'low' })
      .replace(/^ {2}name: .*$/m, `  name: "${name.replace(/"/g, '\\"')}"`)
      .replace(/^( {2}author: .*)$/m, `$1\n  description: "${description}"`);
    const res = await t.request({ method: 'POST', url: '/v1/template', payload: { template: text } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().template.name).toBe(`Shop <script>alert('x')</script> & "Panel" \uE000fake\uE001`);
  });
  afterAll(async () => {
    await t.close();
  });

  const search = async (q: string, highlight: boolean) => {
    const res = await t.request({
      method: 'GET',
      url: `/v2/template/search?${new URLSearchParams({ q, highlight: String(highlight) })}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results[0] as { name: string; description: string };
  };

  it('escapes everything but the highlight markers in name and description', async () => {
    const hit = await search('shop', true);
    expect(hit.name).toBe('<em>Shop</em> &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Panel&quot; fake');
    expect(hit.description).toBe(
      'Finds the &lt;b&gt;<em>shop</em>&lt;/b&gt; admin panel &amp; its &lt;img src=x onerror=alert(1)&gt; login.',
    );
  });

  it('escapes highlighted answers without free words too, and leaves plain answers as stored', async () => {
    const filtered = await search('author:me', true);
    expect(filtered.name).toBe('Shop &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Panel&quot; fake');
    expect(filtered.description).not.toContain('<');
    const plain = await search('shop', false);
    expect(plain.name).toBe(`Shop <script>alert('x')</script> & "Panel" \uE000fake\uE001`);
    expect(plain.description).toBe(description);
  });
});
