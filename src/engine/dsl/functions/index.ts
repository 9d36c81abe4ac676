// Registers every helper function once; importing this module is enough.
import { registerStrings } from './strings.ts';
import { registerEncoding } from './encoding.ts';
import { registerHashing } from './hashing.ts';
import { registerCompression } from './compression.ts';
import { registerRandom } from './random.ts';
import { registerTime } from './time.ts';
import { registerVersions } from './versions.ts';
import { registerNetwork } from './network.ts';
import { registerUnsupported } from './misc.ts';
import { registerCookies } from './cookies.ts';

let done = false;
export function registerAll(): void {
  if (done) return;
  done = true;
  registerStrings();
  registerEncoding();
  registerHashing();
  registerCompression();
  registerRandom();
  registerTime();
  registerVersions();
  registerNetwork();
  registerUnsupported();
  registerCookies();
}
registerAll();

export { isFunction, functionNames, callFunction } from './registry.ts';
