// Node.js 20.19 is the oldest Node the project supports (package.json "engines"): every package of the
// lock file must accept it, or `npm install` there warns EBADENGINE (as cookie@2, engines >=22, did through
// @fastify/cookie and light-my-request; package.json's "overrides" keep cookie on 1.x, the same API, CommonJS).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

describe('Node.js versions', () => {
  it('every installed package accepts the oldest Node.js that package.json supports (no EBADENGINE warning)', () => {
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    expect(oldest).toBe('20.19.0');
    const refused = Object.entries(lock.packages)
      .filter(([name]) => name !== '')
      .flatMap(([name, p]) => {
        const range = Array.isArray(p.engines) ? undefined : p.engines?.node;
        return range && !semver.satisfies(oldest, range)
          ? [`${name.replace(/^.*node_modules\//, '')}@${p.version}: node ${range}`]
          : [];
      });
    expect(refused).toEqual([]);
  });
});
