// Builds the console into web/dist (run by `npm install` through the root package's prepare script).
// After the build it prints the gzipped size of the JavaScript the first page loads (the entry chunk and
// everything it imports statically) and fails above the 350 KB budget.
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const BUDGET_KB = 350;

function firstPageBudget(): Plugin {
  return {
    name: 'first-page-budget',
    apply: 'build',
    generateBundle(_opts, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const seen = new Set<string>();
      const visit = (name: string) => {
        if (seen.has(name)) return;
        seen.add(name);
        const c = byName.get(name);
        if (c && c.type === 'chunk') c.imports.forEach(visit);
      };
      chunks.filter((c) => c.type === 'chunk' && c.isEntry).forEach((c) => visit(c.fileName));
      let total = 0;
      for (const name of seen) {
        const c = byName.get(name);
        if (c && c.type === 'chunk') total += gzipSync(c.code).length;
      }
      const kb = total / 1024;
      console.log(
        `\nconsole: first page JavaScript ${kb.toFixed(1)} KB gzipped (${seen.size} files; budget ${BUDGET_KB} KB)`,
      );
      if (kb > BUDGET_KB)
        this.error(`the first page's JavaScript is ${kb.toFixed(1)} KB gzipped, over the ${BUDGET_KB} KB budget`);
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), firstPageBudget()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline scripts (the server's Content-Security-Policy forbids them).
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
  },
  server: { proxy: { '/v1': 'http://127.0.0.1:8085', '/v2': 'http://127.0.0.1:8085' } },
});
