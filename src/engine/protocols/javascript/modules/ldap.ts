// nuclei/ldap (pkg/js/libs/ldap): Client(ldapUrl, realm, config) connects when constructed (ldap:// and
// ldaps://; ldapi:// and cldap:// are refused here: no Unix sockets, no UDP); BaseDN is "dc=" + the
// realm's labels. Authenticate(user, password): an empty password is an unauthenticated (anonymous)
// simple bind, any other a simple bind, a refused bind an error; CollectMetadata() -> the root DSE's
// AD attributes as { BaseDN, Domain, DefaultNamingContext, DomainFunctionality, ForestFunctionality,
// DomainControllerFunctionality, DnsHostName }; Search(filter, ...attributes) (base "", whole subtree),
// AdvancedSearch(...) and FindADObjects(filter) (base BaseDN) -> SearchResult; GetVersion(); Close().
// Over ldapts, whose sockets connect through the engine's guard, to the scan's target only.
//
// As in nuclei: the config object is accepted and not applied (goja's type check never matches a
// script's Config, so nuclei never upgrades to TLS either), results keep Go's field names (Entries,
// DN, Attributes ...), and NTLM binds are not done here (nuclei tries one first; see docs/protocols.md).
import type net from 'node:net';
import type * as ldaptsTypes from 'ldapts';
import { lazy } from '../../../lazy.ts';
import { dialTcp, dialTls } from '../../../net/guard.ts';
import { bounded, HostEnv, portOf, text, type Handle, type HostOp } from '../host.ts';

// Loaded on a template's first LDAP call, not when `vigil scan` starts.
const ldapts = lazy<typeof ldaptsTypes>('ldapts');

interface LdapHandle extends Handle {
  client: ldaptsTypes.Client;
  realm: string;
  baseDN: string;
}

/** The attributes nuclei's LdapAttributes names (Go field, LDAP name, decoded as an AD timestamp). */
const NAMED: [string, string, boolean?][] = [
  ['CurrentTime', 'currentTime', true],
  ['SubschemaSubentry', 'subschemaSubentry'],
  ['DsServiceName', 'dsServiceName'],
  ['NamingContexts', 'namingContexts'],
  ['DefaultNamingContext', 'defaultNamingContext'],
  ['SchemaNamingContext', 'schemaNamingContext'],
  ['ConfigurationNamingContext', 'configurationNamingContext'],
  ['RootDomainNamingContext', 'rootDomainNamingContext'],
  ['SupportedLDAPVersion', 'supportedLDAPVersion'],
  ['HighestCommittedUSN', 'highestCommittedUSN'],
  ['SupportedSASLMechanisms', 'supportedSASLMechanisms'],
  ['DnsHostName', 'dnsHostName'],
  ['LdapServiceName', 'ldapServiceName'],
  ['ServerName', 'serverName'],
  ['IsSynchronized', 'isSynchronized'],
  ['IsGlobalCatalogReady', 'isGlobalCatalogReady'],
  ['DomainFunctionality', 'domainFunctionality'],
  ['ForestFunctionality', 'forestFunctionality'],
  ['DomainControllerFunctionality', 'domainControllerFunctionality'],
  ['DistinguishedName', 'distinguishedName'],
  ['SAMAccountName', 'sAMAccountName'],
  ['PWDLastSet', 'pwdLastSet', true],
  ['LastLogon', 'lastLogon', true],
  ['MemberOf', 'memberOf'],
  ['ServicePrincipalName', 'servicePrincipalName'],
];
const AD_ATTRIBUTES = [
  'distinguishedName',
  'sAMAccountName',
  'pwdLastSet',
  'lastLogon',
  'memberOf',
  'servicePrincipalName',
];
/** Entries kept of one search. */
const MAX_ENTRIES = 10_000;

/** Go's time "2006-01-02 3:4:5 pm" (UTC here). */
function goTime(d: Date): string {
  const h = d.getUTCHours();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${h % 12 === 0 ? 12 : h % 12}:${d.getUTCMinutes()}:${d.getUTCSeconds()} ${h < 12 ? 'am' : 'pm'}`;
}

export function decodeADTimestamp(v: unknown): string {
  let t: bigint;
  try {
    t = BigInt(text(v).trim() || '0');
  } catch {
    t = 0n;
  }
  if (t === 0n || t === 9223372036854775807n) return 'Not Set';
  return goTime(new Date(Number(t / 10_000_000n - 11644473600n) * 1000));
}

function decodeZuluTimestamp(v: unknown): string {
  const s = text(v);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s)) return '';
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? '' : goTime(d);
}

/** A binary SID (as the string of its bytes) in S-1-5-21-... form. */
function decodeSID(v: unknown): string {
  const b = Buffer.isBuffer(v) ? v : Buffer.from(text(v), 'latin1');
  if (b.length < 8) throw new Error('DecodeSID: too short');
  const count = b[1]!;
  if (b.length < 8 + 4 * count) throw new Error('DecodeSID: too short');
  let authority = 0;
  for (let i = 2; i <= 7; i++) authority = authority * 256 + b[i]!;
  let s = `S-${b[0]}-${authority}`;
  for (let i = 0; i < count; i++) s += `-${b.readUInt32LE(8 + 4 * i)}`;
  return s;
}

const values = (v: unknown): string[] =>
  (Array.isArray(v) ? v : [v]).map((x) => (Buffer.isBuffer(x) ? x.toString('latin1') : text(x)));

/** One entry as nuclei's LdapEntry { DN, Attributes } with Go field names (absent ones null). */
function entryOf(e: Record<string, unknown>) {
  const attrs: Record<string, unknown> = {};
  const extra: Record<string, string[]> = {};
  const named = new Map(NAMED.map(([go, name, ts]) => [name, { go, ts }]));
  for (const [go] of NAMED) attrs[go] = null;
  for (const [name, v] of Object.entries(e)) {
    if (name === 'dn') continue;
    const n = named.get(name);
    if (n) attrs[n.go] = n.ts ? values(v).map(decodeADTimestamp) : values(v);
    else extra[name] = values(v);
  }
  attrs.Extra = extra;
  return { DN: text(e.dn), Attributes: attrs };
}

function searchResult(r: { searchEntries: Record<string, unknown>[]; searchReferences: string[] }) {
  return {
    Referrals: [...r.searchReferences],
    Controls: [],
    Entries: r.searchEntries.slice(0, MAX_ENTRIES).map(entryOf),
  };
}

const SCOPES = ['base', 'one', 'sub', 'children'] as const;
const DEREF = ['never', 'search', 'find', 'always'] as const;

async function open(env: HostEnv, [rawUrl, rawRealm]: unknown[]): Promise<number> {
  const realm = typeof rawRealm === 'string' ? rawRealm : '';
  const ldapUrl = typeof rawUrl === 'string' ? rawUrl : '';
  if (ldapUrl === '') throw new Error('ldap url cannot be empty');
  if (realm === '') throw new Error('realm cannot be empty');
  let u: URL;
  try {
    u = new URL(ldapUrl.includes('://') ? ldapUrl : `ldap://${ldapUrl}`);
  } catch {
    throw new Error('invalid ldap url supported schemas are ldap://, ldaps://, ldapi://, and cldap://');
  }
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme === 'ldapi') throw new Error('ldapi:// (a Unix socket on the scanning host) is refused on this platform');
  if (scheme === 'cldap') throw new Error('cldap:// (connectionless LDAP over UDP) is not supported on this platform');
  if (scheme !== 'ldap' && scheme !== 'ldaps') throw new Error(`unsupported ldap url schema ${scheme}`);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (host === '') throw new Error('ldap host cannot be empty');
  const port = portOf(u.port || (scheme === 'ldaps' ? 636 : 389));
  await env.checkScope(host);
  // An address the deny list refuses outright fails here: ldapts would take the guard's already-failed
  // socket for a connected one. (A name is resolved and judged at connect time, as an error event.)
  env.guard?.connectOptions(host, port);
  const secure = scheme === 'ldaps';
  const client = new (ldapts().Client)({
    url: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    timeout: env.timeoutMs,
    connectTimeout: env.timeoutMs,
    strictDN: false,
    // tlsOptions only for ldaps: ldapts reads their presence as "connect with TLS".
    ...(secure ? { tlsOptions: { rejectUnauthorized: false, minVersion: 'TLSv1' as const } } : {}),
    // Both dial the scan's target through the guard: the deny list decides on the address connected to.
    createConnection: (() => dialTcp(env.guard, { host, port })) as unknown as typeof net.connect,
    createSecureConnection: (() =>
      dialTls(env.guard, { host, port, rejectUnauthorized: false, minVersion: 'TLSv1' })) as never,
  });
  const h: LdapHandle = { kind: 'ldap', client, realm, baseDN: `dc=${realm.split('.').join(',dc=')}`, close: () => {} };
  h.close = () => void client.unbind().catch(() => {});
  const id = env.add(h);
  try {
    // nuclei connects in the constructor: an unreachable server fails here, not at the first call.
    await bounded((client as unknown as { _connect(): Promise<void> })._connect(), env, `connect to ${host}:${port}`);
  } catch (err) {
    env.drop(id);
    if ((err as { code?: string }).code === 'EGRESS_DENIED') throw err; // the deny list's own refusal
    throw new Error(`failed to connect to ldap server: ${(err as Error).message}`);
  }
  return id;
}

const handle = (env: HostEnv, id: unknown) => env.get<LdapHandle>(id, 'ldap');

async function search(env: HostEnv, h: LdapHandle, base: string, o: ldaptsTypes.SearchOptions, what: string) {
  try {
    return await bounded(h.client.search(base, o), env, what);
  } catch (err) {
    throw new Error(`${what} failed: ${(err as Error).message}`);
  }
}

/** A string given as the bind's name (never read as a SASL mechanism name, as ldapts would). */
const asName = (s: string) => ({ toString: () => s }) as unknown as ldaptsTypes.DN;

export const ldapOps: Record<string, HostOp> = {
  'ldap.Open': (env, args) => open(env, args),
  'ldap.Info': (env, [id]) => {
    const h = handle(env, id);
    return { Realm: h.realm, BaseDN: h.baseDN };
  },
  'ldap.Authenticate': async (env, [id, user, password]) => {
    const h = handle(env, id);
    await bounded(h.client.bind(asName(text(user)), text(password)), env, 'ldap bind');
    return true;
  },
  'ldap.AuthenticateWithNTLMHash': () => {
    throw new Error('AuthenticateWithNTLMHash: NTLM binds are not supported on this platform');
  },
  'ldap.CollectMetadata': async (env, [id]) => {
    const h = handle(env, id);
    const r = await search(
      env,
      h,
      '',
      {
        scope: 'base',
        filter: '(objectClass=*)',
        attributes: [
          'defaultNamingContext',
          'domainFunctionality',
          'forestFunctionality',
          'domainControllerFunctionality',
          'dnsHostName',
        ],
      },
      'ldap search request',
    );
    const first = (name: string) => {
      for (const e of r.searchEntries) {
        const v = (e as Record<string, unknown>)[name];
        if (v !== undefined) return values(v)[0] ?? '';
      }
      return '';
    };
    return {
      BaseDN: h.baseDN,
      Domain: h.realm,
      DefaultNamingContext: first('defaultNamingContext'),
      DomainFunctionality: first('domainFunctionality'),
      ForestFunctionality: first('forestFunctionality'),
      DomainControllerFunctionality: first('domainControllerFunctionality'),
      DnsHostName: first('dnsHostName'),
    };
  },
  'ldap.GetVersion': async (env, [id]) => {
    const h = handle(env, id);
    const r = await search(
      env,
      h,
      '',
      { scope: 'base', filter: '(objectClass=*)', attributes: ['supportedLDAPVersion'] },
      'ldap version query',
    );
    const e = r.searchEntries[0] as Record<string, unknown> | undefined;
    if (!e) return ['unknown'];
    return e.supportedLDAPVersion === undefined ? [] : values(e.supportedLDAPVersion);
  },
  'ldap.Search': async (env, [id, filter, ...attributes]) => {
    const h = handle(env, id);
    const attrs = attributes.flat().map(text);
    if (attrs.length === 0) throw new Error('attributes cannot be empty');
    return searchResult(
      await search(env, h, '', { scope: 'sub', filter: text(filter), attributes: attrs }, 'ldap search request'),
    );
  },
  'ldap.AdvancedSearch': async (env, [id, scope, deref, size, time, typesOnly, filter, attributes]) => {
    const h = handle(env, id);
    const pick = <T>(list: readonly T[], v: unknown) => list[Number(v)] ?? list[0]!;
    return searchResult(
      await search(
        env,
        h,
        h.baseDN,
        {
          scope: pick(SCOPES, scope),
          derefAliases: pick(DEREF, deref),
          sizeLimit: Math.max(0, Number(size) || 0),
          timeLimit: Math.max(0, Number(time) || 0),
          returnAttributeValues: typesOnly !== true,
          filter: text(filter) || '(objectClass=*)',
          attributes: Array.isArray(attributes) ? attributes.map(text) : [],
        },
        'ldap search request',
      ),
    );
  },
  'ldap.FindADObjects': async (env, [id, filter]) => {
    const h = handle(env, id);
    return searchResult(
      await search(
        env,
        h,
        h.baseDN,
        { scope: 'sub', filter: text(filter), attributes: AD_ATTRIBUTES },
        'ldap search request',
      ),
    );
  },
  'ldap.Close': (env, [id]) => {
    env.drop(id);
    return null;
  },
  'ldap.DecodeADTimestamp': (_env, [v]) => decodeADTimestamp(v),
  'ldap.DecodeZuluTimestamp': (_env, [v]) => decodeZuluTimestamp(v),
  'ldap.DecodeSID': (_env, [v]) => decodeSID(v),
};
