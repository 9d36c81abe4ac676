// Worker threads do not inherit the tsx loader the main thread runs under. Next to the TypeScript
// sources, register it and run scan-worker.ts; in the compiled dist/ folder, run scan-worker.js.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

if (existsSync(fileURLToPath(new URL('./scan-worker.ts', import.meta.url)))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./scan-worker.ts');
} else {
  await import('./scan-worker.js');
}
