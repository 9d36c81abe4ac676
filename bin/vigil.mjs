#!/usr/bin/env node
// Entry point: runs the TypeScript sources through tsx's loader so no build step is needed.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/index.ts');
