// `vigil scan` on its own: a program that knows only the scan command, so a scan loads and registers
// nothing else. bin/vigil.mjs runs it (bundled into dist/cli/scan.cjs, with a V8 code cache) for
// `vigil scan ...`; every other command goes through index.ts. Start-up is most of a short scan's time.
import { Command } from 'commander';
import { registerScan } from './scan.ts';
import { VERSION } from './version.ts';

const program = new Command('vigil').version(VERSION).showHelpAfterError();
registerScan(program);
// No top-level await: this file is also bundled as CommonJS. A rejection is reported as index.ts's is.
program.parseAsync(process.argv).catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
