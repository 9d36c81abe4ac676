import { describe, expect, it } from 'vitest';
import { queryXPath, parseXPath } from '../../../src/engine/operators/xpath/index.ts';

const html = `<!DOCTYPE html>
<html><head><title>Meduza Stealer panel</title><meta charset=utf-8></head>
<body><form method=post><div><input id='__VIEWSTATE' value="abc&amp;def"><input id="__EVENTVALIDATION" value="ev"><input name="authenticity_token" value="tok123"/></div></form>
<script src="//cdn.example/a.js" integrity="SHA384-xyz"></script><script src="//cdn.example/b.js"></script><script>if (a < b) { x = "</div>"; }</script>
<table><tr><td>cell</td></tr></table><a href="/x" target="_blank">link</a><p>one<p>two<br>
<div id="fusion-form-nonce-0" class="n">nonce</div>
</body></html>`;

const texts = (q: string, src = html) => queryXPath(src, q).map((h) => h.text);

describe('xpath over tolerant HTML', () => {
  it('absolute paths through implied structure', () => {
    expect(texts('/html/head/title')).toEqual(['Meduza Stealer panel']);
    expect(texts("/html/head/title[contains(text(), 'Meduza Stealer')]")).toEqual(['Meduza Stealer panel']);
    expect(queryXPath(html, "/html/body/form/div/input[@id='__VIEWSTATE']")[0].attr('value')).toBe('abc&def');
    expect(texts('/html/body/table/tbody/tr/td')).toEqual(['cell']);
    expect(queryXPath('<p>no html tags</p>', '/html/body/p').length).toBe(1);
  });
  it('attributes, positions and functions', () => {
    expect(texts('//input[@name="authenticity_token"]/@value')).toEqual(['tok123']);
    expect(queryXPath(html, '/html/body/form/div/input[2]')[0].attr('value')).toBe('ev');
    expect(texts('//p[2]')).toEqual(['two\n']); // <div> closes the open <p>
    expect(texts('//*[@id="fusion-form-nonce-0"]')).toEqual(['nonce']);
    expect(texts('//a[@target="_blank"]')).toEqual(['link']);
    expect(texts("//div[starts-with(@id, 'fusion') and normalize-space(.)='nonce']")).toEqual(['nonce']);
  });
  it('translate() and matches() from the corpus SRI checks', () => {
    const q =
      "//script[contains(@src,'//') and not(matches(translate(@integrity,'ABCDEFGHIJKLMNOPQRSTUVWXYZ+/-=','abcdefghijklmnopqrstuvwxyz+/-='), '^sha(256|384|512)-'))]";
    expect(queryXPath(html, q).map((h) => h.attr('src'))).toEqual(['//cdn.example/b.js']);
  });
  it('script content is raw text', () => {
    expect(texts('//script[3]')).toEqual(['if (a < b) { x = "</div>"; }']);
  });
  it('XML documents keep case', () => {
    const xml = '<?xml version="1.0"?><Envelope><Body><Item Key="k">v</Item></Body></Envelope>';
    expect(queryXPath(xml, '/Envelope/Body/Item')[0].attr('Key')).toBe('k');
  });
  it('invalid expressions are rejected by the parser', () => {
    expect(() => parseXPath('//a[')).toThrow();
    expect(() => parseXPath('')).toThrow();
    expect(queryXPath(html, '//a[')).toEqual([]);
  });
});
