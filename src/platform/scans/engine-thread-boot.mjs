// Worker threads do not inherit the tsx loader the main thread runs under. Next to the TypeScript
// sources, register it and run engine-thread.ts; in the compiled dist/ folder, run engine-thread.js.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

if (existsSync(fileURLToPath(new URL('./engine-thread.ts', import.meta.url)))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./engine-thread.ts');
} else {
  await import('./engine-thread.js');
}
