// Worker threads do not inherit the tsx loader registered by the main thread: register it, then run
// the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./load-worker.ts');
