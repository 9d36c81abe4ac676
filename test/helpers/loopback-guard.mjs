// Loaded with `node --import` into a process under test: every TCP connection and DNS lookup to anything
// but the loopback addresses is refused before a packet leaves, and written to VIGIL_GUARD_LOG so the
// test can fail on it. (Tests only ever talk to 127.0.0.1 / ::1; this proves a scan does too.)
import dgram from 'node:dgram';
import dns from 'node:dns';
import fs from 'node:fs';
import net from 'node:net';

const logFile = process.env.VIGIL_GUARD_LOG;
const record = (line) => {
  if (logFile) fs.appendFileSync(logFile, `${line}\n`);
};
const loopback = (h) => {
  const host = String(h ?? 'localhost')
    .replace(/^\[|\]$/g, '')
    .toLowerCase();
  return host === 'localhost' || host === '::1' || host.startsWith('127.') || host === '0:0:0:0:0:0:0:1';
};

// The wildcard addresses a UDP socket binds to before its first datagram (dgram looks them up).
const bindAny = (h) => h === '0.0.0.0' || h === '::';

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  let first = args[0];
  if (Array.isArray(first)) first = first[0]; // node's internal normalized arguments
  const opts = first && typeof first === 'object' ? first : undefined;
  if (opts?.path) return connect.apply(this, args);
  const host = opts ? opts.host : typeof args[1] === 'string' ? args[1] : 'localhost';
  if (!loopback(host)) {
    record(`connect ${host}:${opts?.port ?? args[0]}`);
    process.nextTick(() => this.destroy(new Error(`loopback guard: connection to ${host} refused`)));
    return this;
  }
  return connect.apply(this, args);
};

const lookup = dns.lookup;
dns.lookup = function guardedLookup(hostname, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  if (!loopback(hostname) && !bindAny(hostname)) {
    record(`lookup ${hostname}`);
    const err = Object.assign(new Error(`loopback guard: lookup of ${hostname} refused`), {
      code: 'ENOTFOUND',
      hostname,
    });
    process.nextTick(() => cb(err));
    return {};
  }
  return lookup.call(this, hostname, options, callback);
};
const plookup = dns.promises.lookup;
dns.promises.lookup = async function guardedPromiseLookup(hostname, options) {
  if (!loopback(hostname)) {
    record(`lookup ${hostname}`);
    throw Object.assign(new Error(`loopback guard: lookup of ${hostname} refused`), { code: 'ENOTFOUND', hostname });
  }
  return plookup.call(this, hostname, options);
};

// UDP (DNS queries to resolvers): a datagram to anything else is dropped and recorded.
const send = dgram.Socket.prototype.send;
dgram.Socket.prototype.send = function guardedSend(msg, ...rest) {
  const host = rest.find((a) => typeof a === 'string');
  if (host !== undefined && !loopback(host)) {
    record(`udp ${host}`);
    const cb = rest.find((a) => typeof a === 'function');
    if (cb) process.nextTick(() => cb(new Error(`loopback guard: datagram to ${host} refused`)));
    return;
  }
  return send.call(this, msg, ...rest);
};

// ESM named imports of node:dns / node:dns/promises see the guarded functions too.
(await import('node:module')).syncBuiltinESMExports();
