// Worker threads do not inherit the tsx loader the main thread runs under. Next to the TypeScript
// sources, register it and run discovery-thread.ts; in the compiled dist/ folder, run discovery-thread.js.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

if (existsSync(fileURLToPath(new URL('./discovery-thread.ts', import.meta.url)))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./discovery-thread.ts');
} else {
  await import('./discovery-thread.js');
}
