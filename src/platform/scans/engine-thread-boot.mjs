// Worker threads do not inherit the tsx loader the main thread runs under: register it when the
// sources are TypeScript, then run the engine thread.
const ts = import.meta.url.endsWith('.mjs') && new URL('./engine-thread.ts', import.meta.url);
try {
  const { register } = await import('tsx/esm/api');
  register();
} catch {
  // compiled JavaScript: no loader needed
}
await import(ts ? './engine-thread.ts' : './engine-thread.js');
