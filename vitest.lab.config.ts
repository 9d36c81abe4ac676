import { defineConfig } from 'vitest/config';

// `npm run test:lab`: the real-software lab (installs Debian packages, starts servers); not in `npm test`.
export default defineConfig({
  test: {
    include: ['test/lab/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
