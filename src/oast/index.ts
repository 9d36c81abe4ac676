// The OAST server: an interactsh-compatible out-of-band interaction server (DNS, HTTP/HTTPS, SMTP, LDAP)
// that `vigil serve` runs when VIGIL_OAST_* says where, and `vigil scan` embeds. It imports nothing else
// of Vigil; the engine's client (src/engine/oast/) talks to it over the interactsh protocol only.
export { oastConfigFromEnv, type OastConfig } from './config.ts';
export { startOast, type OastServer } from './server.ts';
export type { Interaction } from './protocol.ts';
