import { describe, expect, it } from 'vitest';
import { render, renderBytes, unresolvedVariables, unsupportedCalls } from '../../../src/engine/dsl/index.ts';

const vars = {
  BaseURL: 'http://127.0.0.1:8080/app',
  Host: '127.0.0.1',
  Port: '8080',
  'interactsh-url': 'x1.oast.me',
  user: 'admin',
  n: 3,
  evil: '{{Host}}',
};

describe('render', () => {
  it('replaces variables and expressions, with or without inner spaces', () => {
    expect(render('{{BaseURL}}/login', vars)).toBe('http://127.0.0.1:8080/app/login');
    expect(render('{{ BaseURL }}', vars)).toBe('http://127.0.0.1:8080/app');
    expect(render('{{to_upper(user)}}:{{n + 1}}', vars)).toBe('ADMIN:4');
    expect(render('{{base64(user + ":" + "pw")}}', vars)).toBe(Buffer.from('admin:pw').toString('base64'));
  });
  it('leaves markers with unknown variables untouched', () => {
    expect(render('{{missing}} and {{md5(missing)}} but {{Host}}', vars)).toBe(
      '{{missing}} and {{md5(missing)}} but 127.0.0.1',
    );
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
    expect(renderBytes('{{base64(concat(hex_decode("ff"), "a"))}}', vars).toString()).toBe(
      Buffer.from([0xff, 0x61]).toString('base64'),
    );
  });
  it('lists unresolved variables', () => {
    expect(unresolvedVariables('{{Host}}/{{token}}/{{md5(secret + salt)}}/§payload§', vars)).toEqual([
      'token',
      'secret',
      'salt',
      'payload',
    ]);
    expect(unresolvedVariables('{{Host}}', vars)).toEqual([]);
  });
  it('names calls to unsupported functions that rendering left in place', () => {
    const text =
      'a: {{generate_java_gadget("commons-collections3.1", "id", to_upper(user))}}\nb: {{llm_prompt("hi")}}\nc: {{Host}}';
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

describe('render from the pieces of a text', () => {
  // A text is split into literals and markers once, then rendered from its pieces: the same output the
  // first time and every time after, whatever the values of the moment.
  it('renders edge cases the same way each time', () => {
    const values = {
      ...vars,
      p: 'p1',
      bytes: Buffer.from([0xff, 0x41]),
      num: 2.5,
      flag: true,
      empty: '',
      sp: ' Host ',
    };
    const cases: [string, string][] = [
      ['', ''],
      ['plain', 'plain'],
      ['/{{p}}', '/p1'],
      ['{{ p }}x{{p}}', 'p1xp1'],
      ['{{}}', '{{}}'],
      ['{{  }}a', '{{  }}a'],
      ['§§', '§§'],
      ['§ §b', '§ §b'],
      ['§p§§num§', 'p12.5'],
      ['§unclosed', '§unclosed'],
      ['{{unclosed', '{{unclosed'],
      ['a}}{{b', 'a}}{{b'],
      ['{{p}}{{', 'p1{{'],
      ['{{bytes}}|{{num}}|{{flag}}|{{empty}}', '\u00ffA|2.5|true|'],
      ['{{missing}}{{p}}', '{{missing}}p1'],
      ['§{{p}}§', '§{{p}}§'],
      ['{{{{sp}}}}', '127.0.0.1'],
      ['{{ {{empty}} }}', '{{ {{empty}} }}'],
    ];
    for (let round = 0; round < 2; round++)
      for (const [text, want] of cases) expect(render(text, values), text).toBe(want);
    expect(render('{{p}}', { p: 'other' })).toBe('other');
  });
});
