// Registers every protocol this engine runs (import for its effect).
import { registerProtocol } from './registry.ts';
import { dnsProtocol } from './dns/index.ts';
import { networkProtocol } from './network/index.ts';
import { sslProtocol } from './ssl/index.ts';

registerProtocol(dnsProtocol);
registerProtocol(networkProtocol);
registerProtocol(sslProtocol);
