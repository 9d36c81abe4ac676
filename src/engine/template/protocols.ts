// The protocol blocks the engine validates but does not run yet (dns, tcp, ssl, file, headless,
// websocket, whois, code, javascript) and `workflows`. They are checked key by key and kept raw.
import type { OtherProtocolBlock, Payloads } from './types.ts';
import { IssueList, join } from './issues.ts';
import { checkShape, checkValue, type Shape, type Spec } from './shape.ts';
import { operatorFields } from './operator-specs.ts';
import { ATTACK, FUZZING } from './common-specs.ts';
import { readPayloads, scriptFilesRoot, type PayloadOptions } from './payloads.ts';
import { isMap, isScalar, kind } from './values.ts';

type Protocol = OtherProtocolBlock['protocol'];

// nuclei's TLS library spells SSL 3.0 `ssl30`; its docs say `sslv3`. Both are accepted.
const TLS_VERSIONS = ['sslv3', 'ssl30', 'tls10', 'tls11', 'tls12', 'tls13'];

const PAYLOAD_FIELDS: Record<string, Spec> = { attack: ATTACK, payloads: 'any' };

const ACTION: Shape = {
  required: ['action'],
  fields: {
    args: 'map',
    name: 'string',
    description: 'string',
    action: {
      enum: [
        'navigate',
        'script',
        'click',
        'rightclick',
        'text',
        'screenshot',
        'time',
        'select',
        'files',
        'waitdom',
        'waitfcp',
        'waitfmp',
        'waitidle',
        'waitload',
        'waitstable',
        'getresource',
        'extract',
        'setmethod',
        'addheader',
        'setheader',
        'deleteheader',
        'setbody',
        'waitevent',
        'waitdialog',
        'keyboard',
        'debug',
        'sleep',
        'waitvisible',
      ],
    },
  },
};

const scalar: Spec = {
  custom: (v, field, out) => {
    if (isScalar(v)) return String(v);
    out.error(field, `must be a string or a number, got ${kind(v)}`);
    return undefined;
  },
};

export const SHAPES: Record<Protocol, Shape> = {
  dns: {
    fields: {
      ...operatorFields,
      ...PAYLOAD_FIELDS,
      id: 'string',
      name: 'string',
      type: {
        enum: ['A', 'NS', 'DS', 'CNAME', 'SOA', 'PTR', 'MX', 'TXT', 'AAAA', 'CAA', 'TLSA', 'ANY', 'SRV'],
        fold: 'upper',
      },
      class: { enum: ['inet', 'csnet', 'chaos', 'hesiod', 'none', 'any'], fold: 'lower' },
      retries: 'uint',
      trace: 'bool',
      'trace-max-recursion': 'uint',
      threads: 'uint',
      recursion: 'bool',
      resolvers: 'list',
    },
  },
  file: {
    fields: {
      ...operatorFields,
      extensions: 'list',
      denylist: 'list',
      id: 'string',
      'max-size': scalar,
      archive: 'bool',
      'mime-type': 'bool',
      'no-recursive': 'bool',
    },
  },
  tcp: {
    fields: {
      ...operatorFields,
      ...PAYLOAD_FIELDS,
      id: 'string',
      host: 'list',
      threads: 'uint',
      inputs: {
        listOf: {
          fields: { data: scalar, type: { enum: ['hex', 'text'], fold: 'lower' }, read: 'int', name: 'string' },
        },
      },
      port: scalar,
      'exclude-ports': scalar,
      'read-size': 'uint',
      'read-all': 'bool',
      'stop-at-first-match': 'bool',
    },
  },
  headless: {
    fields: {
      ...operatorFields,
      ...PAYLOAD_FIELDS,
      id: 'string',
      steps: { listOf: ACTION },
      user_agent: { enum: ['off', 'default', 'custom'], fold: 'lower' },
      custom_user_agent: 'string',
      'stop-at-first-match': 'bool',
      fuzzing: FUZZING,
      'cookie-reuse': 'bool',
      'disable-cookie': 'bool',
    },
  },
  ssl: {
    fields: {
      ...operatorFields,
      id: 'string',
      address: 'string',
      min_version: { enum: TLS_VERSIONS, fold: 'lower' },
      max_version: { enum: TLS_VERSIONS, fold: 'lower' },
      cipher_suites: 'list',
      scan_mode: { enum: ['ctls', 'ztls', 'auto'], fold: 'lower' },
      tls_version_enum: 'bool',
      tls_cipher_enum: 'bool',
      tls_cipher_types: 'list',
    },
  },
  websocket: {
    fields: {
      ...operatorFields,
      ...PAYLOAD_FIELDS,
      id: 'string',
      address: 'string',
      inputs: { listOf: { fields: { data: 'string', name: 'string' } } },
      headers: 'stringMap',
    },
  },
  whois: { fields: { ...operatorFields, id: 'string', query: 'string', server: 'string' } },
  code: {
    fields: {
      ...operatorFields,
      id: 'string',
      engine: 'list',
      sandbox: { shape: { fields: { 'working-dir': 'string', image: 'string' } } },
      'pre-condition': 'string',
      args: 'list',
      pattern: 'string',
      source: 'string',
    },
  },
  javascript: {
    fields: {
      ...operatorFields,
      ...PAYLOAD_FIELDS,
      id: 'string',
      init: 'string',
      'pre-condition': 'string',
      args: 'map',
      code: 'string',
      'stop-at-first-match': 'bool',
      threads: 'uint',
    },
  },
};

/** What each block cannot do without. */
const REQUIRED: Partial<Record<Protocol, (d: Record<string, unknown>) => string | undefined>> = {
  dns: (d) => (d.name === undefined ? 'needs `name` (the query, e.g. {{FQDN}})' : undefined),
  tcp: (d) => (d.host === undefined && d.port === undefined ? 'needs `host` or `port`' : undefined),
  // `source` is optional: some templates pass the script through `args` (bash -c ...).
  code: (d) => (d.engine === undefined ? 'needs `engine`' : undefined),
  // nuclei loads a block with only a `pre-condition` (minecraft-enum's first item) and runs it.
  javascript: (d) =>
    d.code === undefined && d['pre-condition'] === undefined && d.init === undefined
      ? 'needs `code`, `pre-condition` or `init`'
      : undefined,
  headless: (d) => (d.steps === undefined && d.fuzzing === undefined ? 'needs `steps`' : undefined),
  file: (d) => (d.extensions === undefined ? 'needs `extensions`' : undefined),
};

export function parseOtherBlock(
  protocol: Protocol,
  v: unknown,
  key: string,
  out: IssueList,
  opts: PayloadOptions,
): OtherProtocolBlock[] {
  if (!Array.isArray(v)) {
    out.error(key, `must be a list of requests, got ${kind(v)}`);
    return [];
  }
  const result: OtherProtocolBlock[] = [];
  v.forEach((item, i) => {
    const field = join(key, i);
    const d = checkShape(item, SHAPES[protocol], field, out);
    if (!d || !isMap(item)) return;
    const missing = REQUIRED[protocol]?.(d);
    if (missing) out.error(field, missing);
    let payloads: Payloads | undefined;
    if (item.payloads !== undefined && item.payloads !== null) {
      payloads = readPayloads(item.payloads, join(field, 'payloads'), out, opts);
      const attack = (d.attack as string | undefined) ?? 'batteringram';
      if (payloads && attack === 'batteringram' && Object.keys(payloads).length > 1) {
        out.error(
          join(field, 'attack'),
          `batteringram (the default) takes exactly one payload set, found ${Object.keys(payloads).length}; use pitchfork or clusterbomb`,
        );
      }
    }
    // Only a javascript block may read files (nuclei/fs), inside its templates folder.
    const filesRoot =
      protocol === 'javascript' && /nuclei\/fs/.test(JSON.stringify(item)) ? scriptFilesRoot(opts) : undefined;
    result.push({
      protocol,
      raw: item,
      fields: d,
      ...(payloads ? { payloads } : {}),
      ...(filesRoot ? { filesRoot } : {}),
    });
  });
  return result;
}

const WORKFLOW_MATCHER: Shape = {
  fields: { name: 'csv', condition: { enum: ['and', 'or'] }, subtemplates: 'any' },
};
const WORKFLOW: Shape = {
  fields: { template: 'string', tags: 'csv', matchers: 'any', subtemplates: 'any' },
};

/** `workflows`: each entry runs a template (or templates by tag), optionally gated by matcher names. */
export function checkWorkflows(v: unknown, field: string, out: IssueList): unknown[] | undefined {
  if (!Array.isArray(v)) {
    out.error(field, `must be a list, got ${kind(v)}`);
    return undefined;
  }
  v.forEach((w, i) => checkWorkflow(w, join(field, i), out));
  return v;
}

function checkWorkflow(w: unknown, field: string, out: IssueList): void {
  const d = checkShape(w, WORKFLOW, field, out);
  if (!d || !isMap(w)) return;
  if (d.template === undefined && d.tags === undefined) out.error(field, 'needs `template` or `tags`');
  if (w.subtemplates != null) checkSubtemplates(w.subtemplates, join(field, 'subtemplates'), out);
  if (w.matchers != null) {
    const matchers = checkValue(w.matchers, { listOf: WORKFLOW_MATCHER }, join(field, 'matchers'), out);
    if (Array.isArray(w.matchers) && matchers) {
      w.matchers.forEach((m, j) => {
        const mf = join(join(field, 'matchers'), j);
        if (!isMap(m)) return;
        if (m.name == null) out.error(join(mf, 'name'), 'is required');
        if (m.subtemplates != null) checkSubtemplates(m.subtemplates, join(mf, 'subtemplates'), out);
      });
    }
  }
}

function checkSubtemplates(v: unknown, field: string, out: IssueList): void {
  if (!Array.isArray(v)) out.error(field, `must be a list, got ${kind(v)}`);
  else v.forEach((w, i) => checkWorkflow(w, join(field, i), out));
}
