// `{{randstr}}` and `{{randstr_N}}` are replaced in the template text before parsing: one random id per
// name per load, so every use of the same name within a template sees the same value.
import { crypto } from '../lazy.ts';

const RANDSTR = /\{\{(randstr(?:_[A-Za-z0-9]+)?)\}\}/g;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A 27-character alphanumeric id, the length and alphabet of a KSUID. */
export function randomId(): string {
  let id = '';
  while (id.length < 27) {
    for (const byte of crypto().randomBytes(32)) {
      // 248 = 62 * 4: dropping larger bytes keeps every character equally likely.
      if (byte < 248 && id.length < 27) id += ALPHABET[byte % 62];
    }
  }
  return id;
}

/**
 * `text` with every {{randstr}} replaced. `values` (name -> value) are used where set and get the ones
 * drawn here: the same map gives the same text again (a lazy template's text read a second time).
 */
export function replaceRandstr(text: string, values = new Map<string, string>()): string {
  if (!text.includes('{{randstr')) return text;
  return text.replace(RANDSTR, (_, name: string) => {
    let value = values.get(name);
    if (!value) {
      value = randomId();
      values.set(name, value);
    }
    return value;
  });
}
