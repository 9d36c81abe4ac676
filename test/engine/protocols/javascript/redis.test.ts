// nuclei/redis and the corpus's Redis templates against real redis-server processes on 127.0.0.1: one
// without a password (the templates match, with the version extracted) and one with `requirepass`
// (the unauthenticated checks must not match).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTemplates } from '../../../../src/engine/template/index.ts';
import { unsupportedReason } from '../../../../src/engine/runner.ts';
import type { Template } from '../../../../src/engine/template/types.ts';
import { hasShared, sharedDir } from '../../../helpers/shared.ts';
import { installed, startService, type Service } from '../../../helpers/services.ts';
import { scanEvents } from './scan.ts';

const CORPUS = path.join(sharedDir, 'corpus/nuclei-templates/javascript');
const haveRedis = installed('redis-server');
if (!haveRedis)
  console.warn('skipping the redis module tests: redis-server is not installed (apt-get install redis-server)');

async function corpus(...files: string[]): Promise<Template[]> {
  const { templates } = await loadTemplates(files.map((f) => path.join(CORPUS, f)));
  for (const t of templates) expect(unsupportedReason(t)).toBeUndefined();
  return templates;
}

const scan = (templates: Template[], target: string) => scanEvents(templates, target, { timeout: 3 });

const serverArgs = ['--port', '{port}', '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];

describe.skipIf(!haveRedis || !hasShared('corpus/nuclei-templates'))('nuclei/redis', () => {
  let open: Service;
  let locked: Service;
  beforeAll(async () => {
    open = await startService('redis-server', [...serverArgs, '--protected-mode', 'no']);
    locked = await startService('redis-server', [...serverArgs, '--requirepass', 'vigil-not-a-default-9f2c']);
  });
  afterAll(() => {
    open?.stop();
    locked?.stop();
  });

  it('a Redis without a password: info extracted, default login and auth probe match', async () => {
    const ts = await corpus(
      'enumeration/redis/redis-info.yaml',
      'default-logins/redis-default-logins.yaml',
      'enumeration/redis/redis-require-auth.yaml',
    );
    const events = await scan(ts, `127.0.0.1:${open.port}`);
    const by = new Map(events.map((e) => [e['template-id'], e]));
    expect([...by.keys()].sort()).toEqual(['redis-default-logins', 'redis-info', 'redis-require-auth']);
    expect(by.get('redis-info')!['extracted-results']).toEqual(
      expect.arrayContaining([expect.stringMatching(/^redis_version:\d+\.\d+\.\d+$/), 'role:master']),
    );
    expect(by.get('redis-default-logins')!['matched-at']).toBe(`127.0.0.1:${open.port}`);
  });

  it('a Redis with a password: neither the info nor the default logins match', async () => {
    const ts = await corpus('enumeration/redis/redis-info.yaml', 'default-logins/redis-default-logins.yaml');
    const events = await scan(ts, `127.0.0.1:${locked.port}`);
    expect(events).toEqual([]);
  });
});
