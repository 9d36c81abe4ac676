import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate, render, renderBytes, unresolvedVariables, unsupportedCalls, type Vars } from '../../../src/engine/dsl/index.ts';
import { renderWalking, renderWith } from '../../../src/engine/dsl/render.ts';
import { hasShared, sharedDir } from '../../helpers/shared.ts';

const vars = { BaseURL: 'http://127.0.0.1:8080/app', Host: '127.0.0.1', Port: '8080', 'interactsh-url': 'x1.oast.me', user: 'admin', n: 3, evil: '{{Host}}' };

describe('render', () => {
  it('replaces variables and expressions, with or without inner spaces', () => {
    expect(render('{{BaseURL}}/login', vars)).toBe('http://127.0.0.1:8080/app/login');
    expect(render('{{ BaseURL }}', vars)).toBe('http://127.0.0.1:8080/app');
    expect(render('{{to_upper(user)}}:{{n + 1}}', vars)).toBe('ADMIN:4');
    expect(render('{{base64(user + ":" + "pw")}}', vars)).toBe(Buffer.from('admin:pw').toString('base64'));
  });
  it('leaves markers with unknown variables untouched', () => {
    expect(render('{{missing}} and {{md5(missing)}} but {{Host}}', vars)).toBe('{{missing}} and {{md5(missing)}} but 127.0.0.1');
  });
  it('renders nested markers first', () => {
    expect(render("{{base64('{{Host}}:{{Port}}')}}", vars)).toBe(Buffer.from('127.0.0.1:8080').toString('base64'));
    expect(render('{{url_encode("{{BaseURL}}")}}', vars)).toBe('http%3A%2F%2F127.0.0.1%3A8080%2Fapp');
  });
  it('never re-renders substituted values', () => {
    expect(render('{{evil}}', vars)).toBe('{{Host}}');
  });
  it('supports § payload markers and names with dashes', () => {
    expect(render('user=§user§&h={{interactsh-url}}', vars)).toBe('user=admin&h=x1.oast.me');
    expect(render('§unknown§', vars)).toBe('§unknown§');
  });
  it('keeps unmatched braces as text', () => {
    expect(render('{{ not closed', vars)).toBe('{{ not closed');
    expect(render('a}}b', vars)).toBe('a}}b');
  });
  it('renderBytes keeps raw bytes from hex_decode and friends', () => {
    const b = renderBytes("é{{hex_decode('ff00')}}{{Host}}", vars);
    expect([...b]).toEqual([0xc3, 0xa9, 0xff, 0x00, ...Buffer.from('127.0.0.1')]);
    expect(render("{{hex_decode('ff')}}", vars)).toBe('\u00ff');
    expect(renderBytes('{{base64(concat(hex_decode("ff"), "a"))}}', vars).toString()).toBe(Buffer.from([0xff, 0x61]).toString('base64'));
  });
  it('lists unresolved variables', () => {
    expect(unresolvedVariables('{{Host}}/{{token}}/{{md5(secret + salt)}}/§payload§', vars)).toEqual(['token', 'secret', 'salt', 'payload']);
    expect(unresolvedVariables('{{Host}}', vars)).toEqual([]);
  });
  it('names calls to unsupported functions that rendering left in place', () => {
    const text = 'a: {{generate_java_gadget("commons-collections3.1", "id", to_upper(user))}}\nb: {{llm_prompt("hi")}}\nc: {{Host}}';
    expect(render(text, vars)).toContain('{{generate_java_gadget(');
    const found = unsupportedCalls(text, vars);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^unsupported: generate_java_gadget/);
    expect(found[1]).toMatch(/^unsupported: llm_prompt/);
    expect(unsupportedCalls('{{Host}}/{{base64("llm_prompt")}}', vars)).toEqual([]);
    // A missing variable is reported by unresolvedVariables, not here.
    expect(unsupportedCalls('{{llm_prompt(question)}}', vars)).toEqual([]);
  });
});

describe('render through the pieces cache', () => {
  // renderWith splits a text into literals and markers once; renderWalking walks it every time. They
  // must agree on every text: here hand-made edge cases and every marker line of the template corpus.
  const ev = (expr: string, v: Vars) => {
    if (Object.prototype.hasOwnProperty.call(v, expr)) return { ok: true as const, value: v[expr] };
    try {
      return { ok: true as const, value: evaluate(expr, v) };
    } catch {
      return { ok: false as const };
    }
  };
  const values: Vars = { ...vars, p: 'p1', bytes: Buffer.from([0xff, 0x41]), num: 2.5, flag: true, empty: '' };
  const same = (text: string) => expect(renderWith(text, values, ev), text).toBe(renderWalking(text, values, ev));

  it('agrees with the walk on edge cases', () => {
    for (const t of ['', 'plain', '{{p}}', '/{{p}}', '{{ p }}x{{p}}', '{{}}', '{{  }}a', '§§', '§ §b', '§p§§num§', '§unclosed', '{{unclosed',
      'a}}{{b', '{{p}}{{', '{{bytes}}|{{num}}|{{flag}}|{{empty}}', '{{missing}}{{p}}', "{{base64('{{Host}}')}}", '§{{p}}§', '{{p}}§p§{{n+1}}',
      '{{{{p}}}}', '{{ {p} }}', 'x{{to_upper(user)}}y{{md5(missing)}}z']) same(t);
  });

  it.skipIf(!hasShared('corpus/nuclei-templates'))('agrees with the walk on every marker line of the corpus', () => {
    const root = path.join(sharedDir, 'corpus/nuclei-templates');
    const lines = new Set<string>();
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.yaml')) for (const l of readFileSync(p, 'utf8').split('\n')) if (l.includes('{{') || l.includes('§')) lines.add(l);
      }
    };
    walk(root);
    expect(lines.size).toBeGreaterThan(5_000);
    // Functions with a different answer at each call (random, time) or that ask the network are left out.
    for (const l of lines) if (!/rand|time|date|uuid|ksuid|resolve|jarm|public_ip|wait_for/i.test(l)) same(l);
  });
});
