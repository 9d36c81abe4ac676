// Registers every protocol this engine runs (import for its effect).
import './registry.ts';
import { registerProtocol } from './registry.ts';
import { dnsProtocol } from './dns/index.ts';

registerProtocol(dnsProtocol);
import { networkProtocol } from './network/index.ts';

registerProtocol(networkProtocol);
import { sslProtocol } from './ssl/index.ts';

registerProtocol(sslProtocol);
import { websocketProtocol } from './websocket/index.ts';
import { whoisProtocol } from './whois/index.ts';

registerProtocol(websocketProtocol);
registerProtocol(whoisProtocol);
