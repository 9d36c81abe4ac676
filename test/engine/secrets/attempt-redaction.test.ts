// Error strings the runner reports per attempt (onAttempt) are redacted like results: a broken server
// that echoes the request into its status line puts the secret into the error message.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScan, type AttemptInfo, type ResultEvent } from '../../../src/engine/index.ts';
import { parseTemplate } from '../../../src/engine/template/index.ts';
import { loadSecretFiles } from '../../../src/engine/secrets/index.ts';
import { startTcpServer } from '../../helpers/targets.ts';
import { CREDS, tempDir, writeFile } from './fixtures.ts';

/** Answers every request with a status line made of the request's Authorization header. */
let server: { host: string; port: number; close(): Promise<void> };
beforeAll(async () => {
  server = await startTcpServer((socket: net.Socket) => {
    let seen = '';
    socket.on('data', (chunk) => {
      seen += chunk.toString('latin1');
      if (!seen.includes('\r\n\r\n')) return;
      const auth = /^authorization: (.*)$/im.exec(seen)?.[1] ?? 'none';
      socket.end(`ECHO ${auth}\r\n\r\n`);
    });
    socket.on('error', () => {});
  });
});
afterAll(() => server.close());

const TEMPLATE = `id: broken-echo
info: {name: broken echo, author: vigil, severity: info}
http:
  - raw:
      - |
        GET /x HTTP/1.1
        Host: {{Hostname}}

    unsafe: true
    matchers:
      - type: status
        status: [200]
`;

describe('onAttempt error redaction', () => {
  it('replaces secret values in the error of an attempt', async () => {
    const host = `127.0.0.1:${server.port}`;
    const store = await loadSecretFiles([
      writeFile(
        tempDir(),
        's.yaml',
        `static:
  - type: bearertoken
    domains: ["${host}"]
    token: ${CREDS.token}
`,
      ),
    ]);
    const parsed = parseTemplate(TEMPLATE, 'broken.yaml');
    if (!parsed.template) throw new Error(JSON.stringify(parsed.issues));
    const attempts: AttemptInfo[] = [];
    const results: ResultEvent[] = [];
    await runScan({
      targets: [`http://${host}`],
      templates: [parsed.template],
      secrets: store,
      retries: 0,
      matcherStatus: true,
      onResult: (e) => results.push(e),
      onAttempt: (a) => attempts.push(a),
    });
    expect(attempts).toHaveLength(1);
    // The error does carry the echoed header (the secret was sent), with the token replaced.
    expect(attempts[0]!.error).toBe('malformed HTTP response status line: "ECHO Bearer [REDACTED]"');
    expect(JSON.stringify(results)).not.toContain(CREDS.token);
    expect(results[0]!.error).toContain('Bearer [REDACTED]');
  });
});
