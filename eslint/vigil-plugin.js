// Vigil's own ESLint rules: the architecture of docs/architecture.md, checked on every `npm run check`.
// Paths are decided relative to the directory ESLint runs in (the repository root).
import path from 'node:path';

/** The part of src/ a file belongs to, or null outside src/ (tests, benches, scripts may import anything). */
export function layerOf(rel) {
  const m = /^src\/(engine|discovery|oast|db|platform|cli)\//.exec(rel);
  return m ? m[1] : null;
}

// Who may import whom: the house is built bin → cli → platform → discovery → engine (db beside platform);
// the OAST server (src/oast/) stands alone beside the engine: it imports nothing of Vigil, and the engine
// reaches it only over the interactsh protocol.
const ALLOWED = {
  engine: ['engine'],
  discovery: ['discovery', 'engine'],
  oast: ['oast'],
  db: ['db'],
  platform: ['platform', 'db', 'discovery', 'engine', 'oast'],
  cli: ['cli', 'platform', 'db', 'discovery', 'engine', 'oast'],
};

const ENGINE_INDEX = 'src/engine/index.ts';

function toPosix(p) {
  return p.split(path.sep).join('/');
}

/** The file's path relative to the repository root, in forward slashes. */
function relativeFile(context) {
  return toPosix(path.relative(context.cwd, context.filename));
}

/** Calls `check(node, targetRel)` for every relative import, re-export and literal dynamic import of a file. */
function importVisitor(context, check) {
  const fromFile = relativeFile(context);
  const visit = (node, source) => {
    if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
    const spec = source.value;
    if (!spec.startsWith('.')) return; // packages and node: built-ins are not ours to place
    const target = toPosix(path.normalize(path.join(path.dirname(fromFile), spec)));
    check(node, fromFile, target, spec);
  };
  return {
    ImportDeclaration: (node) => visit(node, node.source),
    ExportNamedDeclaration: (node) => visit(node, node.source),
    ExportAllDeclaration: (node) => visit(node, node.source),
    ImportExpression: (node) => visit(node, node.source),
  };
}

const layers = {
  meta: {
    type: 'problem',
    docs: { description: 'src/ areas import each other in one direction: cli → platform → discovery → engine' },
    messages: {
      engineOutside:
        'The engine (src/engine/) imports nothing outside itself, but this imports "{{spec}}" ({{target}}). ' +
        'Move the code it needs into src/engine/, or have the caller pass it in (a parameter or an option).',
      discoveryOutside:
        'Discovery (src/discovery/) imports only itself and the engine, but this imports "{{spec}}" ({{target}}). ' +
        'Move the code into src/discovery/ (or the engine), or let the platform/cli pass it in.',
      oastOutside:
        'The OAST server (src/oast/) imports nothing outside itself, but this imports "{{spec}}" ({{target}}). ' +
        'Keep it standalone: copy nothing in, let the caller pass what it needs as options.',
      upward:
        'src/{{from}}/ must not import src/{{to}}/ ("{{spec}}"): the direction is cli → platform → discovery → ' +
        'engine, with db used by platform and cli. Move the shared code down to a layer both may import.',
    },
    schema: [],
  },
  create(context) {
    return importVisitor(context, (node, fromFile, target, spec) => {
      const from = layerOf(fromFile);
      const to = layerOf(target);
      if (!from || !to || ALLOWED[from].includes(to)) return;
      const messageId =
        from === 'engine'
          ? 'engineOutside'
          : from === 'discovery'
            ? 'discoveryOutside'
            : from === 'oast'
              ? 'oastOutside'
              : 'upward';
      context.report({ node, messageId, data: { spec, target, from, to } });
    });
  },
};

// The standalone parts have one front door each: code elsewhere in src/ imports only their index.
const SURFACES = [
  { folder: 'src/engine/', index: ENGINE_INDEX, name: 'the engine' },
  { folder: 'src/discovery/', index: 'src/discovery/index.ts', name: 'discovery' },
  { folder: 'src/oast/', index: 'src/oast/index.ts', name: 'the OAST server' },
];

const engineSurface = {
  meta: {
    type: 'problem',
    docs: { description: 'code in src/ outside the engine (or discovery) imports only its index.ts' },
    messages: {
      deep:
        'Outside {{name}}, import only from its surface "{{index}}", not "{{spec}}". ' +
        'If what you need is not exported there, export it from {{index}} (tests and benches may ' +
        'import internals).',
    },
    schema: [],
  },
  create(context) {
    return importVisitor(context, (node, fromFile, target, spec) => {
      if (!layerOf(fromFile)) return;
      for (const s of SURFACES) {
        if (fromFile.startsWith(s.folder) || !target.startsWith(s.folder) || target === s.index) continue;
        context.report({ node, messageId: 'deep', data: { spec, name: s.name, index: s.index } });
      }
    });
  },
};

/** Stores: store.ts or *-store.ts under src/platform/, and everything in src/db/. */
export function maySql(rel) {
  if (rel.startsWith('src/db/')) return true;
  return rel.startsWith('src/platform/') && /(^|\/|-)store\.ts$/.test(rel);
}

const sqlInStores = {
  meta: {
    type: 'problem',
    docs: { description: 'SQL (db.query(...) calls, sql`...` templates) only in stores and src/db/' },
    messages: {
      sql:
        "SQL belongs in a store: move this query into the owning area's store.ts (or a *-store.ts beside it) " +
        "under src/platform/ and call that store's function from here.",
    },
    schema: [],
  },
  create(context) {
    const rel = relativeFile(context);
    if (!rel.startsWith('src/') || maySql(rel)) return {};
    return {
      // `x.query(...)` on anything but `this` (a class's own query method, e.g. a DNS client, is not SQL).
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed) return;
        if (callee.property.type !== 'Identifier' || callee.property.name !== 'query') return;
        if (callee.object.type === 'ThisExpression') return;
        context.report({ node, messageId: 'sql' });
      },
      TaggedTemplateExpression(node) {
        const tag = node.tag;
        const name = tag.type === 'Identifier' ? tag.name : tag.type === 'MemberExpression' ? tag.property.name : '';
        if (name === 'sql') context.report({ node, messageId: 'sql' });
      },
    };
  },
};

export default {
  meta: { name: 'vigil' },
  rules: { layers, 'engine-surface': engineSurface, 'sql-in-stores': sqlInStores },
};
