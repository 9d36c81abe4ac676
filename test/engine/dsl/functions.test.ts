// One or more checks for each of the 95 helper functions, with values taken from the functions'
// documented meaning (known digests, RFC/Go behaviour) rather than from our own output.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import {
  evaluate,
  evaluateWithIO,
  functionNames,
  isFunction,
  DslError,
  takePendingWait,
  setDebugOutput,
  escapeControl,
} from '../../../src/engine/dsl/index.ts';

const ev = (e: string, vars: Record<string, unknown> = {}) => evaluate(e, vars);

describe('function table', () => {
  it('has the 95 documented functions, each also without underscores', () => {
    const names = functionNames();
    expect(names.length).toBe(95);
    for (const n of names) expect(isFunction(n.replaceAll('_', ''))).toBe(true);
  });
  it('enforces exact arity with the Go error text', () => {
    expect(() => ev('md5("a", "b")')).toThrow(
      'invalid dsl function signature. correct method signature "md5(arg1 interface{}) interface{}"',
    );
    expect(() => ev('contains("a")')).toThrow(
      /correct method signature "contains\(arg1, arg2 interface\{\}\) interface\{\}"/,
    );
    expect(() => ev('starts_with("a")')).toThrow(DslError);
  });
});

describe('string functions', () => {
  it('case, trim and replace', () => {
    expect(ev('to_upper("hello")')).toBe('HELLO');
    expect(ev('tolower("HeLLo")')).toBe('hello');
    expect(ev('concat(to_title("pRoJeCt"), to_title("diScOvErY"))')).toBe('ProjectDiscovery');
    expect(ev('trim("aaaHelloddd", "ad")')).toBe('Hello');
    expect(ev('trim_left("aaaHelloddd", "ad")')).toBe('Helloddd');
    expect(ev('trim_right("aaaHelloddd", "ad")')).toBe('aaaHello');
    expect(ev('trim_space(s)', { s: '  Hello \t\n' })).toBe('Hello');
    expect(ev('trim_prefix("aaHelloaa", "aa")')).toBe('Helloaa');
    expect(ev('trim_suffix("aaHelloaa", "aa")')).toBe('aaHello');
    expect(ev('replace("Hello", "He", "Ha")')).toBe('Hallo');
    expect(ev('replace_regex("He123llo", "(\\\\d+)", "")')).toBe('Hello');
    expect(ev('replace_regex("a1b2", "(?P<d>\\\\d)", "[${d}]")')).toBe('a[1]b[2]');
    expect(ev('reverse("abc")')).toBe('cba');
    expect(ev('repeat("../", "3")')).toBe('../../../');
    expect(ev('repeat(5, 3)')).toBe('555');
    expect(ev('remove_bad_chars("abcd", "bc")')).toBe('ad');
  });
  it('concat, join, split, substr, sort, uniq, index, len, count, padding', () => {
    expect(ev('concat("Hello", 123, "world", true)')).toBe('Hello123worldtrue');
    expect(ev('join("_", "Hello", 123, "world")')).toBe('Hello_123_world');
    expect(ev('join(" ", sort("b", "a", "2", "1"))')).toBe('1 2 a b');
    expect(ev('split("abcdefg", 2)')).toEqual(['ab', 'cd', 'ef', 'g']);
    expect(ev('split("ab,cd,efg", ",")')).toEqual(['ab', 'cd', 'efg']);
    expect(ev('split("ab,cd,efg", ",", 2)')).toEqual(['ab', 'cd,efg']);
    expect(ev('split("ab,cd,efg", ",", -1)')).toEqual(['ab', 'cd', 'efg']);
    expect(ev("substr('xxtestxxx', 2)")).toBe('testxxx');
    expect(ev("substr('xxtestxxx', 2, 6)")).toBe('test');
    expect(() => ev("substr('abc', 2, 1)")).toThrow(/end position before start/);
    expect(ev('sort("a1b2c3")')).toBe('123abc');
    expect(ev('sort(12453)')).toBe('12345');
    expect(ev('uniq("abcabdaabbccd")')).toBe('abcd');
    expect(ev('uniq("ab", "cd", "ab")')).toEqual(['ab', 'cd']);
    expect(ev('index(split("a.b.c", "."), 1)')).toBe('b');
    expect(ev('index("hello", 0)')).toBe('h');
    expect(() => ev('index("hello", 9)')).toThrow(/index out of range/);
    expect(ev('len("Hello")')).toBe(5);
    expect(ev('len("é")')).toBe(2); // bytes, like Go
    expect(ev('len(split("1.2.3.4", "."))')).toBe(4);
    expect(ev('count("projectdiscovery", "e")')).toBe(2);
    expect(ev("padding('A', 'b', 3, 'suffix')")).toBe('Abb');
    expect(ev("padding('A', 'xy', 4, 'prefix')")).toBe('xyxA');
    expect(ev("padding('ABCD', 'b', 3, 'prefix')")).toBe('ABCD');
  });
  it('predicates', () => {
    const v = { body: 'Hi\nHello World' };
    expect(ev('contains(body, "World")', v)).toBe(true);
    expect(ev('contains_all(body, "Hi", "World")', v)).toBe(true);
    expect(ev('contains_all(body, "Hi", "Nope")', v)).toBe(false);
    expect(ev('contains_any(body, "Nope", "Hello")', v)).toBe(true);
    expect(ev('starts_with(body, "x", "Hi")', v)).toBe(true);
    expect(ev('ends_with(body, "World")', v)).toBe(true);
    expect(ev('line_starts_with(body, "Hello")', v)).toBe(true);
    expect(ev('line_ends_with(body, "Hi")', v)).toBe(true);
    expect(ev('regex("H([a-z]+)o", "Hello")')).toBe(true);
    expect(ev('regex("(?i)^hello", "HELLO")')).toBe(true);
    expect(ev('regex_all("^a", "ab", "ac")')).toBe(true);
    expect(ev('regex_all("^a", "ab", "bc")')).toBe(false);
    expect(ev('regex_any("^a", "xb", "ac")')).toBe(true);
    expect(ev('equals_any(200, "404", "200")')).toBe(true);
    expect(ev('equals_any("a", "b")')).toBe(false);
  });
  it('conversions', () => {
    expect(ev("to_number('4')")).toBe(4);
    expect(ev("to_number('4.5')")).toBe(4.5);
    expect(() => ev("to_number('x')")).toThrow(DslError);
    expect(ev('to_string(4)')).toBe('4');
    expect(ev('to_string(1e21)')).toBe('1000000000000000000000');
    expect(ev('to_bool("true")')).toBe(true);
    expect(ev('to_bool(0)')).toBe(false);
    expect(ev('print_debug("x")')).toBe(true);
  });
  it('print_debug writes one escaped line (no forged log lines), and can be turned off', () => {
    const seen: string[] = [];
    setDebugOutput((line) => seen.push(escapeControl(line)));
    try {
      evaluate('print_debug(v, "b")', { v: 'a\n{"level":30,"msg":"forged"}' });
      expect(seen).toEqual(['print_debug value: [a\\u000a{"level":30,"msg":"forged"} b]']);
      setDebugOutput(undefined);
      ev('print_debug("quiet")');
      expect(seen).toHaveLength(1);
    } finally {
      setDebugOutput((line) => process.stderr.write(escapeControl(line) + '\n'));
    }
    expect(escapeControl('x\r\ny\u2028')).toBe('x\\u000d\\u000ay\\u2028');
  });
});

describe('encoding functions', () => {
  it('base64 family', () => {
    expect(ev('base64("Hello")')).toBe('SGVsbG8=');
    expect(ev('base64(1234)')).toBe('MTIzNA==');
    expect(ev('base64_decode("SGVsbG8=")')).toBe('Hello');
    expect(() => ev('base64_decode("SGVsbG8")')).toThrow(DslError); // Go requires padding
    const long = 'a'.repeat(100);
    const py = ev(`base64_py("${long}")`) as string;
    const lines = py.split('\n');
    expect(lines[0].length).toBe(76);
    expect(py.endsWith('\n')).toBe(true);
    expect(Buffer.from(py.replace(/\n/g, ''), 'base64').toString()).toBe(long);
  });
  it('url encoding', () => {
    expect(ev('url_encode("https://projectdiscovery.io/test?a=1")')).toBe(
      'https%3A%2F%2Fprojectdiscovery.io%2Ftest%3Fa%3D1',
    );
    expect(ev('url_encode("a b-_.~")')).toBe('a%20b-_.~');
    expect(ev('url_encode("a-b", true)')).toBe('a%2Db');
    expect(ev('url_decode("https:%2F%2Fprojectdiscovery.io%3Ftest=1")')).toBe('https://projectdiscovery.io?test=1');
  });
  it('hex and html', () => {
    expect(ev('hex_encode("aa")')).toBe('6161');
    expect(ev('hex_encode("meow", "x")')).toBe('\\x6d\\x65\\x6f\\x77');
    expect(ev('hex_encode("meow", "unknown")')).toBe('6d656f77');
    expect(ev('hex_encode(123)')).toBe('');
    expect(ev('hex_decode("6161")')).toBe('aa');
    expect(() => ev('hex_decode("616")')).toThrow(/odd length/);
    expect(ev('html_escape("<body>test</body>")')).toBe('&lt;body&gt;test&lt;&sol;body&gt;');
    expect(ev('html_escape("<b>", true)')).toBe('&lt;&#98;&gt;');
    expect(ev('html_unescape("&lt;body&gt;test&lt;/body&gt;")')).toBe('<body>test</body>');
    expect(ev('html_unescape("&#x3c;&#98;&gt;")')).toBe('<b>');
  });
  it('number bases', () => {
    expect(ev('dec_to_hex(7001)')).toBe('1b59');
    expect(ev('hex_to_dec("ff")')).toBe(255);
    expect(ev('hex_to_dec("0xff")')).toBe(255);
    expect(ev('oct_to_dec("0o1234567")')).toBe(342391);
    expect(ev('oct_to_dec(1234567)')).toBe(342391);
    expect(ev('bin_to_dec("0b1010")')).toBe(10);
    expect(ev('bin_to_dec(1010)')).toBe(10);
  });
  it('json, ip_format, unpack, xor', () => {
    expect(ev('json_minify("{  \\"name\\":  \\"John Doe\\",   \\"foo\\":  \\"bar\\"     }")')).toBe(
      '{"foo":"bar","name":"John Doe"}',
    );
    expect(ev('json_prettify("{\\"foo\\":\\"bar\\",\\"name\\":\\"John Doe\\"}")')).toBe(
      '{\n    "foo": "bar",\n    "name": "John Doe"\n}',
    );
    expect(ev("ip_format('127.0.0.1', '1')")).toBe('127.0.0.1');
    expect(ev("ip_format('127.0.0.1', '3')")).toBe('0177.0.0.01');
    expect(ev("ip_format('127.0.0.1', '5')")).toBe('2130706433');
    expect(ev("ip_format('127.0.1.0', '11')")).toBe('127.0.256');
    expect(ev("ip_format('127.0.0.1', '2')")).toBe('127.1');
    expect(ev("ip_format('127.0.0.1', '4')")).toBe('0x7f.0x0.0x0.0x1');
    expect(ev("ip_format('127.0.0.1', '8')")).toBe('%31%32%37%2E%30%2E%30%2E%31');
    expect(() => ev("ip_format('127.0.0.1', '12')")).toThrow(/range 1-11/);
    expect(ev("unpack('>I', hex_decode('acd709d0'))")).toBe(0xacd709d0);
    expect(ev("unpack('<H', hex_decode('0100'))")).toBe(1);
    expect([...(ev("xor(hex_decode('0102'), hex_decode('0201'))") as Buffer)]).toEqual([3, 3]);
    expect(() => ev("xor('ab', 'abc')")).toThrow(/same length/);
  });
});

describe('compression functions', () => {
  it('round trips and reads Go-produced streams', () => {
    expect(ev('gzip_decode(gzip("Hello"))')).toBe('Hello');
    expect(ev('zlib_decode(zlib("Hello"))')).toBe('Hello');
    expect(ev('inflate(deflate("Hello"))')).toBe('Hello');
    // Streams produced by Go's compress packages (from the dsl library's own tests).
    expect(ev('gzip_decode(hex_decode("1f8b08000000000000fff248cdc9c907040000ffff8289d1f705000000"))')).toBe('Hello');
    expect(ev('zlib_decode(hex_decode("789cf248cdc9c907040000ffff058c01f5"), 4)')).toBe('Hell');
    expect(ev('inflate(hex_decode("f248cdc9c907040000ffff"))')).toBe('Hello');
    expect(ev('gzip_mtime(hex_decode("1f8b08000000000000fff248cdc9c907040000ffff8289d1f705000000"))')).toBe(0);
    const gz = ev('gzip("abc")') as Buffer;
    expect(zlib.gunzipSync(gz).toString()).toBe('abc');
    expect(gz[9]).toBe(0xff);
  });
  it('zip builds a readable archive', () => {
    const z = ev('zip("a.txt", "abcd", "dir/b.txt", "xyz")') as Buffer;
    const files = unzipSync(new Uint8Array(z));
    expect(Buffer.from(files['a.txt']).toString()).toBe('abcd');
    expect(Buffer.from(files['dir/b.txt']).toString()).toBe('xyz');
    expect(() => ev('zip("a.txt")')).toThrow(/pairs/);
  });
});

describe('hash and crypto functions', () => {
  it('digests', () => {
    expect(ev('md5("")')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(ev('md5("Hello")')).toBe('8b1a9953c4611296a827abf8c47804d7');
    expect(ev('md5(1234)')).toBe('81dc9bdb52d04dc20036dbd8313ed055');
    expect(ev('sha1("abc")')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(ev('sha256("abc")')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(ev('sha512("abc")')).toBe(
      'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    );
  });
  it('mmh3 is signed 32-bit murmur3 in decimal', () => {
    expect(ev('mmh3("")')).toBe('0');
    expect(ev('mmh3("foo")')).toBe('-156908512');
    expect(ev('mmh3("hello")')).toBe('613153351');
    expect(ev('mmh3("Hello")')).toBe('316307400');
  });
  it('hmac', () => {
    expect(ev("hmac('sha1', 'test', 'scrt')")).toBe('8856b111056d946d5c6c92a21b43c233596623c6');
    expect(ev("hmac('sha256', 'test', 'scrt')")).toBe(
      '1f1bff5574f18426eb376d6dd5368a754e67a798aa2074644d5e3fd4c90c7a92',
    );
    expect(ev("hmac('sha512', 'test', 'scrt')")).toBe(
      '1d3fff1dbb7369c1615ffb494813146bea051ce07e5d44bdeca539653ea97656bf9d38db264cddbe6a83ea15139c8f861a7e73e10e43ad4865e852a9ee6de2e9',
    );
    expect(() => ev("hmac('md4', 'a', 'b')")).toThrow(/unsupported hash algorithm/);
  });
  it('aes_cbc / aes_gcm / rsa_encrypt decrypt with the standard algorithms', () => {
    const key = '0123456789abcdef';
    const iv = 'fedcba9876543210';
    const ct = ev(`aes_cbc('secret message', '${key}', '${iv}')`) as Buffer;
    const d = crypto.createDecipheriv('aes-128-cbc', key, iv);
    expect(Buffer.concat([d.update(ct), d.final()]).toString()).toBe('secret message');
    const g = ev(`aes_gcm('${key}', 'hi there')`) as Buffer;
    const dec = crypto.createDecipheriv('aes-128-gcm', key, g.subarray(0, 12));
    dec.setAuthTag(g.subarray(g.length - 16));
    expect(Buffer.concat([dec.update(g.subarray(12, g.length - 16)), dec.final()]).toString()).toBe('hi there');
    const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 1024 });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const enc = ev('rsa_encrypt("plaindata", pem)', { pem }) as string;
    // Undo the RSA step without padding checks and look for the PKCS#1 v1.5 block: 00 02 <random> 00 message.
    const block = crypto.privateDecrypt(
      { key: privateKey, padding: crypto.constants.RSA_NO_PADDING },
      Buffer.from(enc, 'base64'),
    );
    expect(block.length).toBe(128);
    expect(block[0]).toBe(0);
    expect(block[1]).toBe(2);
    expect(block.subarray(block.indexOf(0, 2) + 1).toString()).toBe('plaindata');
  });
  it('generate_jwt signs HS256 like kataras/jwt', () => {
    expect(ev('generate_jwt("{\\"name\\":\\"John Doe\\",\\"foo\\":\\"bar\\"}", "HS256", "hello-world")')).toBe(
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJmb28iOiJiYXIiLCJuYW1lIjoiSm9obiBEb2UifQ.EsrL8lIcYJR_Ns-JuhF3VCllCP7xwbpMCCfHin_WT6U',
    );
    const none = ev('generate_jwt("{\\"a\\":1}", "none")') as string;
    expect(none.endsWith('.')).toBe(true);
    expect(JSON.parse(Buffer.from(none.split('.')[0], 'base64url').toString())).toEqual({ alg: 'none', typ: 'JWT' });
  });
  it('cookie_unsign finds the signing key of a Django cookie', () => {
    expect(
      ev('cookie_unsign("gAJ9cQFYCgAAAHRlc3Rjb29raWVxAlgGAAAAd29ya2VkcQNzLg:1mgnkC:z5yDxzI06qYVAU3bkLaWYpADT4I")'),
    ).toBe('changeme');
  });
});

describe('random functions', () => {
  it('respect lengths, character sets and ranges', () => {
    expect(ev('rand_char("x")')).toBe('x');
    expect(ev('rand_base(8, "ab")')).toMatch(/^[ab]{8}$/);
    expect(ev('rand_base(5)')).toMatch(/^[A-Za-z0-9]{5}$/);
    expect(ev('rand_text_alphanumeric(10, "abc")')).toMatch(/^[d-zA-Z0-9]{10}$/);
    expect(ev('rand_text_alpha(10)')).toMatch(/^[A-Za-z]{10}$/);
    expect(ev('rand_text_numeric(6, "0")')).toMatch(/^[1-9]{6}$/);
    for (let i = 0; i < 20; i++) {
      const n = ev('rand_int(10, 20)') as number;
      expect(n >= 10 && n < 20).toBe(true);
    }
    expect(ev('rand_ip("10.1.2.0/24")')).toMatch(/^10\.1\.2\.\d{1,3}$/);
    expect(ev('rand_ip("2001:db8::/120")')).toMatch(/^2001:db8:/);
    expect(ev('rand_ip("::ffff:10.1.2.3")')).toBe('10.1.2.3');
  });
});

describe('time functions', () => {
  it('date_time with % placeholders and Go layouts', () => {
    const d = new Date(1642032000 * 1000);
    const pad = (n: number) => String(n).padStart(2, '0');
    expect(ev('date_time("%Y-%M-%D", 1642032000)')).toBe(
      `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
    );
    expect(ev('date_time("02-01-2006 15:04", 1642032000)')).toBe(
      `${pad(d.getDate())}-${pad(d.getMonth() + 1)}-${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`,
    );
    expect(ev('date_time("Jan 2 2006", 1642032000)')).toBe(`Jan ${d.getDate()} ${d.getFullYear()}`);
  });
  it('unix_time and to_unix_time', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(Math.abs((ev('unix_time()') as number) - now)).toBeLessThan(3);
    expect(Math.abs((ev('unix_time(10)') as number) - now - 10)).toBeLessThan(3);
    expect(ev('to_unix_time("2022-01-13T16:30:10Z")')).toBe(1642091410);
    expect(ev('to_unix_time("2022-01-13T16:30:10+00:00")')).toBe(1642091410);
    expect(ev('to_unix_time("2022-01-13 16:30:10 +01:00")')).toBe(1642091410 - 3600);
    expect(ev('to_unix_time("2022-01-13")')).toBe(1642032000);
    expect(ev('to_unix_time("1642032000")')).toBe(1642032000);
    expect(ev('to_unix_time("13/01/2022", "02/01/2006")')).toBe(1642032000);
  });
  it('wait_for records the delay for its async caller instead of blocking the thread', () => {
    takePendingWait();
    const t = Date.now();
    expect(ev('wait_for(20)')).toBe(true);
    expect(Date.now() - t).toBeLessThan(500); // it used to sleep synchronously, freezing the process
    expect(ev('wait_for(1)')).toBe(true);
    expect(takePendingWait()).toBe(21_000);
    expect(takePendingWait()).toBe(0);
    ev('wait_for(100000)');
    expect(takePendingWait()).toBe(60_000); // one call waits at most a minute
  });
});

describe('compare_versions (hashicorp go-version)', () => {
  it.each([
    ["'v1.0.0', '<1.1.1'", true],
    ["'v1.1.1', '>v1.1.0'", true],
    ["'v1.0.0', '>v0.0.1,<v1.0.1'", true],
    ["'v1.0.0', '>v0.0.1', '<v1.0.1'", true],
    ["'1.0', '= 1.0.0'", true],
    ["'1.2.3', '~> 1.2'", true],
    ["'1.3.0', '~> 1.2.3'", false],
    ["'1.2.9', '~> 1.2.3'", true],
    ["'1.0.0-beta', '< 1.0.0'", false],
    ["'1.0.0-beta', '< 1.0.0-rc1'", true],
    ["'5.8', '>= 5.0, <= 5.8.2'", true],
    ["'2.4.49', '!= 2.4.49'", false],
  ])('compare_versions(%s) is %s', (args, want) => {
    expect(ev(`compare_versions(${args})`)).toBe(want);
  });
  it('rejects malformed versions', () => {
    expect(() => ev("compare_versions('abc', '<1')")).toThrow(DslError);
  });
});

describe('network and unsupported functions', () => {
  it('getNetworkPort', () => {
    expect(ev('getNetworkPort("", "3306")')).toBe('3306');
    expect(ev('getNetworkPort("443", "3306")')).toBe('3306');
    expect(ev('getNetworkPort("3307", "3306")')).toBe('3307');
  });
  it('resolve works for localhost (fetched asynchronously)', async () => {
    expect(await evaluateWithIO('resolve("localhost", "4")', {})).toBe('127.0.0.1');
  }, 20000);
  it('jarm requires host:port', () => {
    expect(() => ev('jarm("127.0.0.1")')).toThrow(/missing port/);
  });
  it('gadget generators and llm_prompt are refused clearly', () => {
    expect(() => ev('generate_java_gadget("commons-collections3.1", "id", "base64")')).toThrow(
      /^unsupported: generate_java_gadget/,
    );
    expect(() => ev('generate_dotnet_gadget("a", "b", "c", "d")')).toThrow(/^unsupported: generate_dotnet_gadget/);
    expect(() => ev('llm_prompt("hi")')).toThrow(/^unsupported: llm_prompt/);
  });
});
