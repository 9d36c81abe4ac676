// The floor for any Node.js prober in bench/cli: a bare `node` process that sends GET /<word> for each
// line of a word list over N keep-alive sockets, with a minimal response reader (Content-Length or
// chunked, nothing else), no template, no matching, no output. What `vigil scan` cannot beat in Node.
// Usage: node bench/raw-probe.mjs <base-url> <words-file> [connections]
import net from 'node:net';
import { readFileSync } from 'node:fs';

const [base, wordsFile, conns = '40'] = process.argv.slice(2);
const url = new URL(base);
const words = readFileSync(wordsFile, 'utf8').split('\n').filter(Boolean);
let next = 0;
let done = 0;

/** Bytes of one whole response at the start of buf, or -1 while it is incomplete. */
function responseLength(buf) {
  const head = buf.indexOf('\r\n\r\n');
  if (head < 0) return -1;
  const text = buf.toString('latin1', 0, head);
  const cl = /\r\ncontent-length:\s*(\d+)/i.exec(text);
  if (cl) return buf.length >= head + 4 + Number(cl[1]) ? head + 4 + Number(cl[1]) : -1;
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(text)) return head + 4;
  const end = buf.indexOf('\r\n0\r\n\r\n', head + 4);
  return end < 0 ? -1 : end + 7;
}

await new Promise((resolve, reject) => {
  for (let c = 0; c < Number(conns); c++) {
    const socket = net.connect(Number(url.port || 80), url.hostname);
    socket.setNoDelay(true);
    let buf = Buffer.alloc(0);
    const send = () => {
      if (next >= words.length) return void socket.end();
      socket.write(
        `GET /${words[next++]} HTTP/1.1\r\nHost: ${url.host}\r\nUser-Agent: probe\r\nAccept: */*\r\n\r\n`,
        'latin1',
      );
    };
    socket.on('connect', send);
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      for (let n; (n = responseLength(buf)) >= 0;) {
        buf = buf.subarray(n);
        if (++done === words.length) resolve();
        send();
      }
    });
  }
});
