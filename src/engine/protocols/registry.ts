// The non-http protocols this engine runs, by the name templates use for their blocks.
import type { BlockRunner } from './types.ts';
import { runDns } from './dns/index.ts';
import { runNetwork } from './network/index.ts';
import { runSsl } from './ssl/index.ts';

export const PROTOCOLS: Partial<Record<string, BlockRunner>> = {
  dns: runDns,
  tcp: runNetwork,
  ssl: runSsl,
};
