// Builds the console (web/ -> web/dist); run by `npm install` through the prepare script and by
// `npm run build:web`. Without the build tools (an install with --omit=dev) it says so and stops cleanly:
// the API works without the console.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vite = path.join(root, 'node_modules/vite/bin/vite.js');
if (!existsSync(vite)) {
  console.log('console: not built (vite is not installed; run a full `npm install` to build it)');
  process.exit(0);
}
// Vite needs Node 20.19+ or 22.12+; on an older Node the API still installs and runs, without the console.
const [major, minor] = process.versions.node.split('.').map(Number);
if (!((major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 23)) {
  console.log(`console: not built (building it needs Node 20.19+ or 22.12+; this is ${process.versions.node})`);
  process.exit(0);
}
const started = Date.now();
const r = spawnSync(process.execPath, [vite, 'build', '--config', path.join(root, 'web/vite.config.ts'), '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
if (r.status === 0) console.log(`console: built into web/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(r.status ?? 1);
