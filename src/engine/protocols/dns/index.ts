// dns blocks: one query per name (and payload combination) to the configured resolvers over UDP, TCP
// when the answer is truncated, with retries. Matchers and extractors see nuclei's parts: `raw` (the
// whole answer as dig prints it; also the default part), `answer`, `ns`, `extra`, `question`,
// `request`, `rcode` (a number: 0 NOERROR, 3 NXDOMAIN).
import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';
import packet from 'dns-packet';
import type { OtherProtocolBlock } from '../../template/types.ts';
import type { BlockContext, BlockOutcome } from '../types.ts';
import { evaluate, list, payloadSets, renderText, requestVars, splitHostPort } from '../common.ts';
import { formatMessage, formatQuestion, formatRecords, rcodeOf, RCODES } from './format.ts';

const CLASSES: Record<string, string> = { inet: 'IN', csnet: 'CS', chaos: 'CH', hesiod: 'HS', none: 'NONE', any: 'ANY' };

type Message = packet.Packet;

function resolversFor(ctx: BlockContext, block: OtherProtocolBlock): { host: string; port: number }[] {
  const configured = ctx.resolvers?.length ? ctx.resolvers : list(block.fields.resolvers);
  const all = configured.length ? configured : dns.getServers();
  return all.map((r) => {
    const { host, port } = splitHostPort(r.trim());
    return { host, port: port ?? 53 };
  });
}

function queryUdp(server: { host: string; port: number }, query: Buffer, timeoutMs: number, signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket(net.isIPv6(server.host) ? 'udp6' : 'udp4');
    const done = (err: Error | null, msg?: Buffer) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      sock.close();
      if (err) reject(err);
      else resolve(msg!);
    };
    const onAbort = () => done(new Error('aborted'));
    const timer = setTimeout(() => done(new Error(`no answer from ${server.host}:${server.port} within ${timeoutMs} ms`)), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    sock.on('error', (e) => done(e));
    sock.on('message', (msg) => {
      // Only the answer to our query (same id) counts.
      if (msg.length >= 2 && msg.readUInt16BE(0) === query.readUInt16BE(0)) done(null, msg);
    });
    sock.send(query, server.port, server.host);
  });
}

function queryTcp(server: { host: string; port: number }, query: Buffer, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(server.port, server.host);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => { sock.destroy(); reject(new Error(`no TCP answer from ${server.host}:${server.port}`)); }, timeoutMs);
    sock.on('connect', () => {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(query.length);
      sock.write(Buffer.concat([len, query]));
    });
    sock.on('data', (d) => {
      chunks.push(d);
      const all = Buffer.concat(chunks);
      if (all.length >= 2 && all.length >= 2 + all.readUInt16BE(0)) {
        clearTimeout(timer);
        sock.destroy();
        resolve(all.subarray(2, 2 + all.readUInt16BE(0)));
      }
    });
    sock.on('error', (e) => { clearTimeout(timer); reject(e); });
  });
}

async function exchange(ctx: BlockContext, servers: { host: string; port: number }[], query: Buffer, retries: number): Promise<Message> {
  let last: Error | undefined;
  for (let attempt = 0; attempt <= retries; attempt++) {
    const server = servers[attempt % servers.length]!;
    try {
      let msg = packet.decode(await queryUdp(server, query, ctx.timeoutMs, ctx.signal));
      if ((msg.flags ?? 0) & packet.TRUNCATED_RESPONSE) msg = packet.decode(await queryTcp(server, query, ctx.timeoutMs));
      return msg;
    } catch (err) {
      last = err as Error;
      if (ctx.signal?.aborted) break;
    }
  }
  throw last ?? new Error('no resolver');
}

export async function runDns(block: OtherProtocolBlock, ctx: BlockContext): Promise<BlockOutcome> {
  const f = block.fields;
  const type = String(f.type ?? 'A').toUpperCase();
  const cls = CLASSES[String(f.class ?? 'inet').toLowerCase()] ?? 'IN';
  const recursion = f.recursion === undefined ? true : Boolean(f.recursion);
  const retries = typeof f.retries === 'number' ? f.retries : Math.max(ctx.retries, 1);
  const servers = resolversFor(ctx, block);
  const names = list(f.name).length ? list(f.name) : ['{{FQDN}}'];
  const out: BlockOutcome = { passed: false, reported: false };
  for (const combo of payloadSets(block)) {
    for (const tpl of names) {
      if (ctx.signal?.aborted) return out;
      const vars = requestVars(ctx, combo);
      let name = renderText(tpl, vars).trim();
      if (!name) continue;
      if (!name.endsWith('.')) name += '.';
      const q = { type: 'query' as const, id: Math.floor(Math.random() * 65535), flags: recursion ? packet.RECURSION_DESIRED : 0,
        questions: [{ type: type as packet.RecordType, class: cls as packet.RecordClass, name: name.slice(0, -1) }] };
      const query = packet.encode(q);
      await ctx.beforeRequest?.();
      let msg: Message;
      try {
        msg = await exchange(ctx, servers, query, retries);
      } catch (err) {
        out.error = (err as Error).message;
        continue;
      }
      const data = {
        host: name, matched: name, type: 'dns', request: formatMessage(q as Message, false), rcode: RCODES.indexOf(rcodeOf(msg)),
        question: formatQuestion(msg.questions ?? []), answer: formatRecords(msg.answers ?? []), ns: formatRecords(msg.authorities ?? []),
        extra: formatRecords(msg.additionals ?? []), raw: formatMessage(msg, true), trace: '',
      };
      const r = evaluate(ctx, block, vars, { ...data, body: data.raw }, {
        type: 'dns', host: name.slice(0, -1), matchedAt: name.slice(0, -1), ip: '', request: data.request, response: data.raw,
      });
      out.passed ||= r.passed;
      out.reported ||= r.reported;
    }
  }
  return out;
}
