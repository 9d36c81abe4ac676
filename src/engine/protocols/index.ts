// Registers every protocol this engine runs beside http (import for its effect). A protocol that is
// not registered is parsed and validated, and its templates are skipped with the reason.
import { registerProtocol } from './registry.ts';
import { dnsProtocol } from './dns/index.ts';
import { headlessProtocol } from './headless/index.ts';
import { javascriptProtocol } from './javascript/index.ts';
import { networkProtocol } from './network/index.ts';
import { sslProtocol } from './ssl/index.ts';
import { websocketProtocol } from './websocket/index.ts';
import { whoisProtocol } from './whois/index.ts';

registerProtocol(dnsProtocol);
registerProtocol(headlessProtocol);
registerProtocol(javascriptProtocol);
registerProtocol(networkProtocol);
registerProtocol(sslProtocol);
registerProtocol(websocketProtocol);
registerProtocol(whoisProtocol);
