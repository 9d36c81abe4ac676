// The reference data tests read from ../shared (the template corpus, the vulnerability feeds). A clone
// without it still passes `npm test`: the tests that need it are skipped, and say so once.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const sharedDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared');

let told = false;

/** True when `../shared/<sub>` is there; otherwise false, with one message per test process. */
export function hasShared(sub: string): boolean {
  const ok = existsSync(path.join(sharedDir, sub));
  if (!ok && !told) {
    told = true;
    console.warn(`skipping the tests that need ${sharedDir} (the corpus and vulnerability data): it is not there`);
  }
  return ok;
}
