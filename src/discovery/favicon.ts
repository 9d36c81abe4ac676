// The favicon hash search engines index (Shodan's http.favicon.hash): MurmurHash3 x86 32-bit, seed 0,
// signed, computed over the icon's base64 text in MIME layout (lines of 76 characters, each ending "\n"),
// which is what Python's base64.encodebytes produces.
import murmur from 'murmurhash3js-revisited';

export function mimeBase64(bytes: Buffer): string {
  const b64 = bytes.toString('base64');
  let out = '';
  for (let i = 0; i < b64.length; i += 76) out += b64.slice(i, i + 76) + '\n';
  return out;
}

export function faviconHash(bytes: Buffer): number {
  const text = Buffer.from(mimeBase64(bytes), 'ascii');
  const unsigned = murmur.x86.hash32(new Uint8Array(text), 0) as number;
  return unsigned | 0;
}
