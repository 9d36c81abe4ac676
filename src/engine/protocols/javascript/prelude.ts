// The javascript protocol's globals, as script source run inside the sandbox (QuickJS) before the
// template's code: nuclei's helpers (pkg/js/global: log, console, to_json, to_array, dump_json,
// hex_to_ascii, atob, btoa, Rand, RandInt, ToBytes, ToString, getNetworkPort, isPortOpen,
// isUDPPortOpen), Export and ExportAs, the template's args as globals, `template`, and `require` of the
// `nuclei/<name>` modules. A module is a thin wrapper here: every operation is one host call `op(name,
// args)` answered on the engine thread (modules/*.ts), which is where sockets live and the deny list and
// the target scope are applied. Objects a module opens (a connection, a client) are handles, numbers
// the host maps to what it opened for this run only.

export const REFUSED_MODULES: Record<string, string> = {};

/** Modules a script may require, beside the refused ones (docs/protocols.md lists what each supports). */
export const MODULES = ['net', 'bytes', 'structs', 'redis', 'ssh', 'postgres', 'mysql', 'rsync', 'smtp', 'ldap', 'smb'];
MODULES.push('rdp', 'mssql', 'oracle', 'pop3', 'fs');

export const PRELUDE = String.raw`
'use strict';
const G = globalThis, Str = String, isArray = Array.isArray, stringify = JSON.stringify, U8 = Uint8Array;
const define = (name, value) => Object.defineProperty(G, name, { value, writable: true, configurable: true });
const op = (name, ...args) => revive(host.op(name, args.map(arg)));
// A module object's JSON form arrives as data under toJSON (modules/ssh.ts): it becomes the method
// JSON.stringify calls, so the script reads Go's field names and to_json/Export write the JSON names.
function revive(v) {
  if (v === null || typeof v !== 'object' || v instanceof U8) return v;
  if (isArray(v)) { for (const x of v) revive(x); return v; }
  for (const k in v) if (k !== 'toJSON') revive(v[k]);
  if (Object.prototype.hasOwnProperty.call(v, 'toJSON') && typeof v.toJSON !== 'function') {
    const json = v.toJSON;
    Object.defineProperty(v, 'toJSON', { value: () => json, enumerable: false });
  }
  return v;
}
// What a module call hands the host: a bytes.Buffer as its bytes, a number as it is.
function arg(v) {
  if (v !== null && typeof v === 'object' && v.__bytes instanceof U8) return v.__bytes;
  return v === undefined ? null : v;
}
function utf8(s) {
  try { s = unescape(encodeURIComponent(s)); } catch { /* a lone surrogate: bytes of the code units */ }
  const b = new U8(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i) & 0xff;
  return b;
}
function fromUtf8(b) {
  let s = '';
  for (let i = 0; i < b.length; i += 4096) s += Str.fromCharCode.apply(null, b.subarray(i, i + 4096));
  try { return decodeURIComponent(escape(s)); } catch { return s; }
}
function toBytes(v) {
  if (v instanceof U8) return v;
  if (v !== null && typeof v === 'object' && v.__bytes instanceof U8) return v.__bytes;
  if (isArray(v)) return new U8(v.map((x) => Number(x) & 0xff));
  return utf8(v === undefined || v === null ? '' : Str(v));
}
function hex(b) {
  let s = '';
  for (let i = 0; i < b.length; i++) s += (b[i] < 16 ? '0' : '') + b[i].toString(16);
  return s;
}
function to_json(data) { return stringify(data, null, 2); }
// Go's fmt "%+v" of what goja exports (nuclei's stringify): objects of modules are JSON.
function gostr(v) {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return Str(v);
  if (v instanceof U8) return '[' + Array.prototype.join.call(v, ' ') + ']';
  if (isArray(v)) return '[' + v.map(gostr).join(' ') + ']';
  if (typeof v === 'object') return to_json(v);
  return Str(v);
}
function logText(v) { return typeof v === 'string' ? v : gostr(v); }

define('template', data.template);
for (const k in data.args) define(k, data.args[k]);
define('to_json', to_json);
define('dump_json', function dump_json(d) { host.log(to_json(d)); });
define('to_array', function to_array(d) { return Object.setPrototypeOf(d, Array.prototype); });
define('hex_to_ascii', function hex_to_ascii(h) {
  const t = Str(h); let s = '';
  for (let n = 0; n < t.length; n += 2) s += Str.fromCharCode(parseInt(t.substr(n, 2), 16));
  return s;
});
define('log', function log(v) { host.log(logText(v)); return v; });
const say = (...a) => { host.log(a.map(logText).join(' ')); };
define('console', { log: say, info: say, warn: say, error: say, debug: say });
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
define('btoa', function btoa(input) {
  const b = utf8(Str(input)); let out = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + (i + 1 < b.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < b.length ? B64[n & 63] : '=');
  }
  return out;
});
define('atob', function atob(input) {
  const t = Str(input);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(t) || t.length % 4 !== 0) return null;
  const bytes = [];
  for (let i = 0; i < t.length; i += 4) {
    const n = (B64.indexOf(t[i]) << 18) | (B64.indexOf(t[i + 1]) << 12) | ((B64.indexOf(t[i + 2]) & 63) << 6) | (B64.indexOf(t[i + 3]) & 63);
    bytes.push((n >> 16) & 255);
    if (t[i + 2] !== '=') bytes.push((n >> 8) & 255);
    if (t[i + 3] !== '=') bytes.push(n & 255);
  }
  return fromUtf8(new U8(bytes));
});
define('Rand', function Rand(n) { return op('Rand', n); });
define('RandInt', function RandInt() { return op('RandInt'); });
define('ToBytes', function ToBytes(...args) {
  let s = '';
  for (const a of args) {
    if (a === undefined || a === null) continue;
    if (isArray(a)) { for (const x of a) s += gostr(x); } else s += a instanceof U8 ? fromUtf8(a) : gostr(a);
  }
  return utf8(s);
});
define('ToString', function ToString(...args) {
  let s = '';
  for (const a of args) if (a !== undefined && a !== null) s += a instanceof U8 ? fromUtf8(a) : gostr(a);
  return s;
});
const KNOWN_PORTS = ['80', '443', '8080', '8081', '8443', '53'];
define('getNetworkPort', function getNetworkPort(port, fallback) {
  const p = Str(port ?? '');
  return p === '' || KNOWN_PORTS.includes(p.toLowerCase()) ? fallback : port;
});
define('isPortOpen', function isPortOpen(h, p, t) { return op('isPortOpen', Str(h ?? ''), Str(p ?? ''), t); });
define('isUDPPortOpen', function isUDPPortOpen(h, p, t) { return op('isUDPPortOpen', Str(h ?? ''), Str(p ?? ''), t); });
define('Export', function Export(...values) {
  for (const v of values) { const s = gostr(v); if (s !== '') host.exp(s); }
  return null;
});
// A block's init script only (nuclei registers them for init and removes them after).
if (data.init) {
  define('updatePayload', function updatePayload(name, value) { host.upd(Str(name), value === undefined ? null : value); return null; });
  define('set', function set(name, value) {
    if (Str(name ?? '') === '') throw new Error('variable name cannot be empty');
    if (value === undefined || value === null) throw new Error('variable value cannot be empty');
    host.set(Str(name), value);
    return null;
  });
}
define('ExportAs', function ExportAs(...a) {
  if (a.length !== 2) throw new Error('ExportAs expects 2 arguments');
  host.expAs(Str(a[0]), gostr(a[1]));
  return null;
});

// ---- modules ----
function NetConn(id) {
  const c = (name) => (...a) => op('net.' + name, id, ...a);
  return {
    Send: c('Send'), SendHex: c('SendHex'), SendArray: c('SendArray'),
    Recv: c('Recv'), RecvString: c('RecvString'), RecvHex: c('RecvHex'),
    RecvFull: c('RecvFull'), RecvFullString: c('RecvFullString'), RecvFullHex: c('RecvFullHex'),
    SetTimeout: c('SetTimeout'), Close: c('Close'),
  };
}
function NewBuffer(init) {
  let buf = new U8(0);
  if (init !== undefined) {
    if (!(init instanceof U8)) throw new TypeError('Invalid argument type. Expected bytes/Uint8Array as input');
    buf = init;
  }
  const self = {
    get __bytes() { return buf; },
    Write(d) { const b = toBytes(d); const n = new U8(buf.length + b.length); n.set(buf); n.set(b, buf.length); buf = n; return self; },
    WriteString(s) { return self.Write(utf8(Str(s))); },
    Bytes() { return buf; },
    String() { return fromUtf8(buf); },
    Len() { return buf.length; },
    Hex() { return hex(buf); },
    Hexdump() { return op('bytes.Hexdump', buf); },
    Pack(format, msg) { self.Write(op('structs.Pack', format, msg)); return null; },
    toString() { return fromUtf8(buf); },
  };
  return self;
}
function hostFns(prefix, names) {
  const m = {};
  for (const n of names) m[n] = (...a) => op(prefix + '.' + n, ...a);
  return m;
}
function client(prefix, names, extra) {
  return function () {
    let id = null;
    const self = extra ? extra() : {};
    for (const n of names) self[n] = (...a) => { const r = op(prefix + '.' + n, id, ...a); if (r && typeof r === 'object' && 'handle' in r) { id = r.handle; return r.value; } return r; };
    return self;
  };
}
const modules = {
  'nuclei/net': { Open: (p, a) => NetConn(op('net.Open', p, a)), OpenTLS: (p, a) => NetConn(op('net.OpenTLS', p, a)) },
  'nuclei/bytes': { NewBuffer, Buffer: NewBuffer },
  'nuclei/structs': hostFns('structs', ['Pack', 'Unpack', 'StructsCalcSize']),
  'nuclei/redis': hostFns('redis', ['GetServerInfo', 'Connect', 'GetServerInfoAuth', 'IsAuthenticated', 'RunLuaScript']),
  'nuclei/postgres': { PGClient: client('postgres', ['IsPostgres', 'Connect', 'ConnectWithDB', 'ExecuteQuery']) },
  'nuclei/mysql': {
    MySQLClient: client('mysql', ['IsMySQL', 'FingerprintMySQL', 'Connect', 'ConnectWithDSN', 'ExecuteQuery', 'ExecuteQueryOnDB', 'ExecuteQueryWithOpts']),
    BuildDSN: (o) => op('mysql.BuildDSN', o),
  },
  'nuclei/rsync': { IsRsync: (h, p) => op('rsync.IsRsync', h, p), RsyncClient: client('rsync', ['ListModules']) },
  'nuclei/ssh': { SSHClient: client('ssh', ['Connect', 'ConnectWithKey', 'ConnectSSHInfoMode', 'Run', 'SetTimeout', 'Close']) },
  'nuclei/mssql': { MSSQLClient: client('mssql', ['IsMssql', 'Connect', 'ConnectWithDB', 'ExecuteQuery']) },
  'nuclei/oracle': { IsOracle: (h, p) => op('oracle.IsOracle', h, p), OracleClient: client('oracle.client', ['IsOracle', 'Connect', 'ConnectWithDSN', 'ExecuteQuery', 'ExecuteQueryWithDSN']) },
  'nuclei/fs': hostFns('fs', ['ListDir', 'ReadFile', 'ReadFileAsString', 'ReadFilesFromDir']),
  'nuclei/pop3': { IsPOP3: (h, p) => op('pop3.IsPOP3', h, p) },
  'nuclei/rdp': { ...hostFns('rdp', ['IsRDP', 'CheckRDPAuth', 'CheckRDPEncryption']), SecurityLayerNativeRDP: 'NativeRDP', SecurityLayerSSL: 'SSL', SecurityLayerCredSSP: 'CredSSP', SecurityLayerRDSTLS: 'RDSTLS', SecurityLayerCredSSPWithEarlyUserAuth: 'CredSSPWithEarlyUserAuth', EncryptionLevelRC4_40bit: 'RC4_40bit', EncryptionLevelRC4_56bit: 'RC4_56bit', EncryptionLevelRC4_128bit: 'RC4_128bit', EncryptionLevelFIPS140_1: 'FIPS140_1' },
};
function SmtpClient(host, port) {
  const h = host === undefined || host === null ? '' : Str(host);
  const p = port === undefined || port === null ? '' : Str(port);
  if (h === '') throw new Error('host cannot be empty');
  if (!/^\d+$/.test(p) || Number(p) < 1 || Number(p) > 65535) throw new Error('port must be a valid number');
  return {
    IsSMTP: () => op('smtp.IsSMTP', h, p),
    IsOpenRelay: (m) => op('smtp.IsOpenRelay', h, p, m && m.__message ? m.__message() : m),
    SendMail: (m) => op('smtp.SendMail', h, p, m && m.__message ? m.__message() : m),
  };
}
function SMTPMessage() {
  const d = { from: '', to: [], sub: '', msg: '', user: '', pass: '' };
  const self = {
    From(v) { d.from = Str(v); return self; },
    To(v) { d.to.push(Str(v)); return self; },
    Subject(v) { d.sub = Str(v); return self; },
    Body(v) { d.msg = v instanceof U8 ? fromUtf8(v) : Str(v); return self; },
    Auth(u, p) { d.user = Str(u); d.pass = Str(p); return self; },
    String() { return 'To: ' + d.to.join(',') + '\r\n' + (d.sub ? 'Subject: ' + d.sub + '\r\n' : '') + '\r\n' + d.msg + '\r\n'; },
    __message() { return d; },
  };
  return self;
}
modules['nuclei/smtp'] = { Client: SmtpClient, SMTPMessage };
// nuclei/ldap: the client connects when made (with or without new); its config is accepted, not applied.
function LdapClient(url, realm) {
  const id = op('ldap.Open', url, realm);
  const info = op('ldap.Info', id);
  const c = (name) => (...a) => op('ldap.' + name, id, ...a);
  const self = {
    Host: '', Port: 0, Realm: info.Realm, BaseDN: info.BaseDN,
    Authenticate: c('Authenticate'), AuthenticateWithNTLMHash: c('AuthenticateWithNTLMHash'),
    Search: c('Search'), AdvancedSearch: c('AdvancedSearch'), CollectMetadata: c('CollectMetadata'),
    GetVersion: c('GetVersion'), FindADObjects: c('FindADObjects'), Close: c('Close'),
  };
  const find = (...f) => () => self.FindADObjects(f.length === 1 ? f[0] : LDAP.JoinFilters(...f));
  const F = LDAP;
  Object.assign(self, {
    GetADUsers: find(F.FilterIsPerson),
    GetADActiveUsers: find(F.FilterIsPerson, F.FilterAccountEnabled),
    GetADUserWithNeverExpiringPasswords: find(F.FilterIsPerson, F.FilterDontExpirePassword),
    GetADUserTrustedForDelegation: find(F.FilterIsPerson, F.FilterTrustedForDelegation),
    GetADUserWithPasswordNotRequired: find(F.FilterIsPerson, F.FilterPasswordNotRequired),
    GetADGroups: find(F.FilterIsGroup),
    GetADDCList: find(F.FilterIsComputer, F.FilterAccountEnabled, F.FilterServerTrustAccount),
    GetADAdmins: find(F.FilterIsPerson, F.FilterAccountEnabled, F.FilterIsAdmin),
    GetADUserKerberoastable: find(F.FilterIsPerson, F.FilterAccountEnabled, F.FilterHasServicePrincipalName),
    GetADUserAsRepRoastable: find(F.FilterIsPerson, F.FilterDontRequirePreauth),
  });
  return self;
}
const UAC = (n) => '(userAccountControl:1.2.840.113556.1.4.803:=' + n + ')';
const LDAP = {
  Client: LdapClient, NewClient: LdapClient,
  Config: function Config() { return { Timeout: 0, ServerName: '', Upgrade: false }; },
  Metadata: function Metadata() { return { BaseDN: '', Domain: '', DefaultNamingContext: '', DomainFunctionality: '', ForestFunctionality: '', DomainControllerFunctionality: '', DnsHostName: '' }; },
  JoinFilters: (...f) => '(&' + f.map(Str).join('') + ')',
  NegativeFilter: (f) => '(!' + Str(f) + ')',
  DecodeADTimestamp: (v) => op('ldap.DecodeADTimestamp', Str(v ?? '')),
  DecodeZuluTimestamp: (v) => op('ldap.DecodeZuluTimestamp', Str(v ?? '')),
  DecodeSID: (v) => op('ldap.DecodeSID', Str(v ?? '')),
  FilterIsPerson: '(objectCategory=person)', FilterIsGroup: '(objectCategory=group)',
  FilterIsComputer: '(objectCategory=computer)', FilterIsAdmin: '(adminCount=1)',
  FilterHasServicePrincipalName: '(servicePrincipalName=*)', FilterLogonScript: UAC(1),
  FilterAccountDisabled: UAC(2), FilterAccountEnabled: '(!' + UAC(2) + ')', FilterHomedirRequired: UAC(8),
  FilterLockout: UAC(16), FilterPasswordNotRequired: UAC(32), FilterPasswordCantChange: UAC(64),
  FilterCanSendEncryptedPassword: UAC(128), FilterIsDuplicateAccount: UAC(256), FilterIsNormalAccount: UAC(512),
  FilterInterdomainTrustAccount: UAC(2048), FilterWorkstationTrustAccount: UAC(4096),
  FilterServerTrustAccount: UAC(8192), FilterDontExpirePassword: UAC(65536), FilterMnsLogonAccount: UAC(131072),
  FilterSmartCardRequired: UAC(262144), FilterTrustedForDelegation: UAC(524288), FilterNotDelegated: UAC(1048576),
  FilterUseDesKeyOnly: UAC(2097152), FilterDontRequirePreauth: UAC(4194304), FilterPasswordExpired: UAC(8388608),
  FilterTrustedToAuthForDelegation: UAC(16777216), FilterPartialSecretsAccount: UAC(67108864),
};
modules['nuclei/ldap'] = LDAP;
const SMB_FNS = ['ConnectSMBInfoMode', 'ListSMBv2Metadata', 'ListShares', 'DetectSMBGhost'];
modules['nuclei/smb'] = { SMBClient: function SMBClient() { return hostFns('smb', SMB_FNS); } };
const loaded = {};
define('require', function require(name) {
  const n = Str(name);
  const refused = data.refused[n];
  if (refused !== undefined) throw new Error(refused);
  const m = modules[n];
  if (m === undefined) throw new Error('Invalid module "' + n + '": no such module on this platform');
  return (loaded[n] ??= m);
});
`;
