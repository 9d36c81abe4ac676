// Builds the console into web/dist (run by `npm install` through the root package's prepare script).
// After the build it prints the gzipped size of the JavaScript the first page loads (the entry chunk and
// everything it imports statically) and fails above the 350 KB budget.
//
// It puts the boot script (src/boot.ts) first in the page, and writes one copy of index.html per page address (pages/*.html, listed in pages.json) that names
// that page's own chunks as modulepreload links: the server sends the copy for the address asked for, so
// the browser fetches and compiles the page's code while the main bundle loads, instead of only after
// the main bundle has run, asked for the session and matched the route (a second wave of requests).
import { readFileSync } from 'node:fs';
import path from 'node:path';
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

/** One page of the router: its address pattern, its module, and whether it needs a session. */
interface RouteSource {
  path: string;
  module: string;
  signedIn: boolean;
}

/**
 * The router's pages as written in its sources: each `createRoute({ ... })` block with a `path: '...'`
 * and a lazily imported component (`import('./pages/X')`). Routes under the signed-in layout (`app`)
 * need a session; those under the root (sign-in, invite) do not.
 */
function routesOf(file: string, code: string): RouteSource[] {
  const out: RouteSource[] = [];
  for (const block of code.split('createRoute(').slice(1)) {
    const routePath = /\bpath:\s*'([^']+)'/.exec(block)?.[1];
    const spec = /import\('([^']+)'\)/.exec(block)?.[1];
    const parent = /getParentRoute:\s*\(\)\s*=>\s*(\w+)/.exec(block)?.[1];
    if (!routePath || !spec || !routePath.startsWith('/')) continue;
    out.push({ path: routePath, module: path.resolve(path.dirname(file), spec), signedIn: parent !== 'root' });
  }
  return out;
}

/** pages/<name>.html for each page: index.html plus modulepreload links for the page's own chunks. */
function routePages(): Plugin {
  const routes: RouteSource[] = [];
  return {
    name: 'route-pages',
    apply: 'build',
    enforce: 'post',
    transform(_code, id) {
      // The sources as written (read again: the code here is already transformed); the router files are
      // the ones defining routes.
      if (!/\/web\/src\/.*\.tsx?$/.test(id)) return null;
      const code = readFileSync(id, 'utf8');
      if (code.includes('createRoute(')) routes.push(...routesOf(id, code));
      return null;
    },
    generateBundle(_opts, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') this.error('route-pages: index.html is not in the bundle');
      // The boot script (src/boot.ts, an entry of its own) goes first, ahead of the main bundle.
      const boot = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry && c.name === 'boot');
      if (!boot) this.error('route-pages: the boot chunk is not in the bundle');
      html.source = String(html.source).replace(
        '<script type="module"',
        `<script type="module" crossorigin src="/${boot.fileName}"></script>\n    <script type="module"`,
      );
      const page = String(html.source);
      const chunks = new Map(
        Object.values(bundle)
          .filter((c) => c.type === 'chunk')
          .map((c) => [c.fileName, c]),
      );
      const closure = (start: string[]) => {
        const seen = new Set<string>();
        const visit = (name: string) => {
          if (seen.has(name)) return;
          seen.add(name);
          const c = chunks.get(name);
          if (c && c.type === 'chunk') c.imports.forEach(visit);
        };
        start.forEach(visit);
        return seen;
      };
      const entry = [...chunks.values()].filter((c) => c.type === 'chunk' && c.isEntry).map((c) => c.fileName);
      const inPage = closure(entry);
      const byModule = new Map<string, string>();
      for (const c of chunks.values())
        if (c.type === 'chunk' && c.facadeModuleId) byModule.set(c.facadeModuleId.replace(/\.tsx?$/, ''), c.fileName);
      const listed: { path: string; file: string; signedIn: boolean }[] = [];
      for (const r of routes) {
        const chunk = byModule.get(r.module.replace(/\.tsx?$/, ''));
        if (!chunk) this.error(`route-pages: no chunk for ${r.path} (${r.module})`);
        const files = [...closure([chunk])].filter((f) => !inPage.has(f));
        const links = files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('\n    ');
        const name = r.path === '/' ? 'index' : r.path.slice(1).replace(/[^\w-]+/g, '_');
        const file = `pages/${name}.html`;
        if (listed.some((l) => l.file === file))
          this.error(`route-pages: ${r.path} and another page both make ${file}`);
        this.emitFile({ type: 'asset', fileName: file, source: page.replace('</head>', `  ${links}\n  </head>`) });
        listed.push({ path: r.path, file, signedIn: r.signedIn });
      }
      this.emitFile({ type: 'asset', fileName: 'pages.json', source: JSON.stringify(listed, null, 1) + '\n' });
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), firstPageBudget(), routePages()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline scripts (the server's Content-Security-Policy forbids them).
    modulePreload: { polyfill: false },
    // The page, and src/boot.ts as an entry of its own: a small script that asks for the session before
    // the main bundle has been evaluated (the plugin above puts it first in the page).
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        boot: fileURLToPath(new URL('src/boot.ts', import.meta.url)),
      },
    },
    chunkSizeWarningLimit: 1500,
  },
  server: { proxy: { '/v1': 'http://127.0.0.1:8085', '/v2': 'http://127.0.0.1:8085' } },
});
