// Makes the console screenshots in docs/console/*.png (npm run docs:screenshots). Tests never write
// tracked files, so the docs' images come only from here.
//
// The pictures are taken by the console's end-to-end walks (test/web/console*.test.ts), which already do
// what a demo needs and keep it true: each starts `vigil serve` on PGlite in a temporary data folder,
// fills it with demo data through the API and the console (a small template catalogue, real CVE/KEV
// records from ../shared, a local HTTP target on 127.0.0.1, scans, findings, configs, enumerations,
// policies), and drives Debian's Chromium (/usr/bin/chromium, or VIGIL_CHROMIUM) with playwright-core.
// This script runs those walks on PGlite only, one file after another, with VIGIL_SCREENSHOTS_DIR pointing
// at docs/console; a test run without it writes to the git-ignored .vigil-tmp/console-shots/.
//
//   npm run docs:screenshots            all pages
//   npm run docs:screenshots -- assets  only the walks whose file name contains "assets"
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'docs/console');
const chromium = process.env.VIGIL_CHROMIUM ?? '/usr/bin/chromium';
const WALKS = ['test/web/console.test.ts', 'test/web/console-configs.test.ts', 'test/web/console-assets.test.ts'];

if (!existsSync(chromium)) {
  console.error(`${chromium} is missing: install it with \`apt-get install -y chromium\``);
  process.exit(1);
}
if (!existsSync(path.resolve(root, '../shared/data/vuln'))) {
  console.error('../shared/data/vuln is missing: the finding and vulnerability pages need the real CVE records');
  process.exit(1);
}

const filter = process.argv[2];
const walks = WALKS.filter((w) => !filter || path.basename(w).includes(filter));
if (walks.length === 0) {
  console.error(`no console walk matches "${filter}" (${WALKS.map((w) => path.basename(w)).join(', ')})`);
  process.exit(1);
}

// PGlite only: the screenshots come from the PGlite run, so a PostgreSQL run would only cost time.
const env: NodeJS.ProcessEnv = { ...process.env, VIGIL_SCREENSHOTS_DIR: outDir };
delete env.TEST_DATABASE_URL;
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
for (const walk of walks) {
  console.log(`docs:screenshots: ${walk}`);
  const run = spawnSync(process.execPath, [vitest, 'run', walk], { cwd: root, env, stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(
      `docs:screenshots: ${walk} failed (exit ${run.status ?? run.signal}); its screenshots may be missing or stale`,
    );
    process.exit(1);
  }
}
const pngs = readdirSync(outDir).filter((f) => f.endsWith('.png'));
console.log(
  `docs:screenshots: ${pngs.length} images in ${path.relative(root, outDir)}/ (review with git diff --stat, then commit)`,
);
