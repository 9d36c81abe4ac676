// What each config type's YAML may hold, as TypeBox schemas (also printed in docs/configs.md), and the
// check that turns the first problem into a 400 naming the key. Unknown keys are refused everywhere.
import yaml from 'js-yaml';
import { Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { badRequest } from '../shared/errors.ts';

export const CONFIG_TYPES = [
  'scan',
  'reporting',
  'template',
  'alerting',
  'cloudlist',
  'subfinder',
  'remediation',
  'vuln_score',
] as const;
export type ConfigType = (typeof CONFIG_TYPES)[number];

export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical', 'unknown'] as const;
const Severity = Type.Union(SEVERITIES.map((s) => Type.Literal(s)));
const Text = Type.String({ minLength: 1, maxLength: 4096 });
const List = (item: TSchema = Text) => Type.Array(item, { maxItems: 1000 });
const Url = Type.String({ minLength: 1, maxLength: 4096, pattern: '^https?://[^\\s]+$' });
const Strict = { additionalProperties: false } as const;

export const ScanConfigDoc = Type.Object(
  {
    'rate-limit': Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    'bulk-size': Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 300 })),
    retries: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
    'max-host-error': Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    'chunk-parallelism': Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
    header: Type.Optional(List(Type.String({ pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+:.*$", maxLength: 8192 }))),
    var: Type.Optional(List(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]*=.*$', maxLength: 8192 }))),
    proxy: Type.Optional(Type.String({ pattern: '^socks5h?://[^\\s/]+:\\d+/?$', maxLength: 1000 })),
    tags: Type.Optional(List()),
    'exclude-tags': Type.Optional(List()),
    severity: Type.Optional(List(Severity)),
    'exclude-severity': Type.Optional(List(Severity)),
  },
  Strict,
);

export const TemplateConfigDoc = Type.Object(
  {
    ids: Type.Optional(List()),
    folders: Type.Optional(List()),
    tags: Type.Optional(List()),
    severities: Type.Optional(List(Severity)),
    'exclude-ids': Type.Optional(List()),
    'exclude-tags': Type.Optional(List()),
    'exclude-severities': Type.Optional(List(Severity)),
  },
  Strict,
);

export const ALERT_EVENTS = [
  'scan_running',
  'scan_finished',
  'scan_failed',
  'scan_stopped',
  'new_finding',
  'new_asset',
  'asset_policy_match',
] as const;
export const ALERT_PROVIDERS = ['webhook', 'slack', 'teams', 'email'] as const;
const alertCommon = {
  events: Type.Array(Type.Union(ALERT_EVENTS.map((e) => Type.Literal(e))), { minItems: 1, maxItems: 20 }),
  'min-severity': Type.Optional(Severity),
};
export const AlertingDocs: Record<(typeof ALERT_PROVIDERS)[number], TSchema> = {
  webhook: Type.Object(
    {
      provider: Type.Literal('webhook'),
      ...alertCommon,
      webhook: Type.Object(
        {
          url: Url,
          method: Type.Optional(Type.Union([Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('PATCH')])),
          headers: Type.Optional(
            Type.Record(Type.String({ pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" }), Type.String({ maxLength: 8192 })),
          ),
          body: Type.Optional(Type.String({ maxLength: 65536 })),
        },
        Strict,
      ),
    },
    Strict,
  ),
  slack: Type.Object(
    {
      provider: Type.Literal('slack'),
      ...alertCommon,
      slack: Type.Object({ 'webhook-url': Url, channel: Type.Optional(Text), username: Type.Optional(Text) }, Strict),
    },
    Strict,
  ),
  teams: Type.Object(
    {
      provider: Type.Literal('teams'),
      ...alertCommon,
      teams: Type.Object({ 'webhook-url': Url }, Strict),
    },
    Strict,
  ),
  email: Type.Object(
    {
      provider: Type.Literal('email'),
      ...alertCommon,
      email: Type.Object(
        {
          host: Text,
          port: Type.Integer({ minimum: 1, maximum: 65535 }),
          secure: Type.Optional(
            Type.Boolean({ description: 'TLS from the start (port 465); otherwise STARTTLS when offered' }),
          ),
          username: Type.Optional(Text),
          password: Type.Optional(Text),
          from: Type.String({ pattern: '^[^\\s@<>]+@[^\\s@<>]+$', maxLength: 320 }),
          to: Type.Array(Type.String({ pattern: '^[^\\s@<>]+@[^\\s@<>]+$', maxLength: 320 }), {
            minItems: 1,
            maxItems: 100,
          }),
          subject: Type.Optional(Type.String({ maxLength: 500 })),
        },
        Strict,
      ),
    },
    Strict,
  ),
};

export const TRACKERS = ['github', 'gitlab', 'jira', 'linear', 'gitea'] as const;
const Filter = Type.Object({ severity: Type.Optional(List(Severity)), tags: Type.Optional(List()) }, Strict);
const reportCommon = { 'allow-list': Type.Optional(Filter), 'deny-list': Type.Optional(Filter) };
export const ReportingDocs: Record<(typeof TRACKERS)[number], TSchema> = {
  github: Type.Object(
    {
      ...reportCommon,
      github: Type.Object(
        {
          'base-url': Type.Optional(Url),
          owner: Text,
          'project-name': Text,
          token: Text,
          'issue-label': Type.Optional(Text),
          username: Type.Optional(Text),
        },
        Strict,
      ),
    },
    Strict,
  ),
  gitlab: Type.Object(
    {
      ...reportCommon,
      gitlab: Type.Object(
        {
          'base-url': Type.Optional(Url),
          'project-name': Text,
          token: Text,
          'issue-label': Type.Optional(Text),
          username: Type.Optional(Text),
        },
        Strict,
      ),
    },
    Strict,
  ),
  jira: Type.Object(
    {
      ...reportCommon,
      jira: Type.Object(
        {
          url: Url,
          'project-name': Text,
          email: Type.Optional(Text),
          token: Text,
          'issue-type': Type.Optional(Text),
          cloud: Type.Optional(Type.Boolean()),
        },
        Strict,
      ),
    },
    Strict,
  ),
  linear: Type.Object(
    {
      ...reportCommon,
      linear: Type.Object(
        {
          'base-url': Type.Optional(Url),
          'api-key': Text,
          'team-id': Text,
          'project-id': Type.Optional(Text),
        },
        Strict,
      ),
    },
    Strict,
  ),
  gitea: Type.Object(
    {
      ...reportCommon,
      gitea: Type.Object(
        {
          'base-url': Url,
          'project-owner': Text,
          'project-name': Text,
          token: Text,
          'issue-label': Type.Optional(Text),
        },
        Strict,
      ),
    },
    Strict,
  ),
};

// cloudlist's provider-config.yaml: a list of providers, each with its credential keys.
export const CLOUD_PROVIDERS: Record<string, string[]> = {
  aws: ['aws_access_key', 'aws_secret_key'],
  gcp: ['gcp_service_account_key'],
  azure: ['client_id', 'client_secret', 'tenant_id'],
  do: ['digitalocean_token'],
  scw: ['scaleway_access_key', 'scaleway_access_token'],
  cloudflare: ['api_token'],
  linode: ['linode_personal_access_token'],
  hetzner: ['auth_token'],
  fastly: ['fastly_api_key'],
  heroku: ['heroku_api_token'],
  namecheap: ['namecheap_api_key', 'namecheap_user_name'],
  alibaba: ['alibaba_region_id', 'alibaba_access_key', 'alibaba_access_key_secret'],
};
const CLOUD_OPTIONAL = [
  'id',
  'aws_session_token',
  'email',
  'api_key',
  'assume_role_name',
  'account_ids',
  'namecheap_client_ip',
  'subscription_id',
];

// subfinder's provider-config.yaml: source name -> list of keys.
export const SUBFINDER_SOURCES = [
  'alienvault',
  'bevigil',
  'binaryedge',
  'bufferover',
  'builtwith',
  'c99',
  'censys',
  'certspotter',
  'chaos',
  'chinaz',
  'digitalyama',
  'dnsdb',
  'dnsdumpster',
  'dnsrepo',
  'facebook',
  'fofa',
  'fullhunt',
  'github',
  'hunter',
  'intelx',
  'leakix',
  'netlas',
  'passivetotal',
  'quake',
  'redhuntlabs',
  'robtex',
  'securitytrails',
  'shodan',
  'threatbook',
  'virustotal',
  'whoisxmlapi',
  'zoomeyeapi',
];
export const SubfinderDoc = Type.Object(
  Object.fromEntries(SUBFINDER_SOURCES.map((s) => [s, Type.Optional(Type.Array(Text, { maxItems: 100 }))])),
  Strict,
);

export const RemediationDoc = Type.Object(
  {
    'retest-interval': Type.String({ pattern: '^[1-9][0-9]{0,4}[hd]$', description: 'e.g. 12h, 7d' }),
    'min-severity': Type.Optional(Severity),
  },
  Strict,
);

export const VulnScoreDoc = Type.Object(
  {
    rules: Type.Array(
      Type.Object(
        {
          template: Type.Optional(Text),
          tag: Type.Optional(Text),
          host: Type.Optional(Text),
          severity: Severity,
        },
        Strict,
      ),
      { minItems: 1, maxItems: 1000 },
    ),
  },
  Strict,
);

/**
 * A schema problem said in words a person fixing the config understands ("must be one of POST, PUT,
 * PATCH", "must be an http(s) URL"), instead of the validator's ("Expected union value").
 */
function inWords(schema: TSchema, fallback: string): string {
  const s = schema as TSchema & Record<string, any>;
  const values = (s.anyOf as TSchema[] | undefined)?.map((x) => (x as { const?: unknown }).const);
  if (values?.length && values.every((v) => v !== undefined)) return `must be one of ${values.join(', ')}`;
  if (s.type === 'string') {
    if (s.pattern === '^https?://[^\\s]+$') return 'must be an http(s) URL such as https://hooks.example.com/path';
    if (typeof s.pattern === 'string' && s.pattern.includes('@')) return 'must be an email address (name@example.com)';
    if (s.pattern) return 'is not in the expected form';
    if (s.minLength)
      return 'must be text that is not empty' + (s.maxLength ? ` (at most ${s.maxLength} characters)` : '');
    return 'must be text';
  }
  const range =
    s.minimum !== undefined && s.maximum !== undefined
      ? ` from ${s.minimum} to ${s.maximum}`
      : s.minimum !== undefined
        ? ` of at least ${s.minimum}`
        : '';
  if (s.type === 'integer') return `must be a whole number${range}`;
  if (s.type === 'number') return `must be a number${range}`;
  if (s.type === 'boolean') return 'must be true or false';
  if (s.type === 'array')
    return s.minItems ? `must be a list of at least ${s.minItems} item${s.minItems > 1 ? 's' : ''}` : 'must be a list';
  if (s.type === 'object') return 'must be a mapping (key: value lines)';
  return fallback;
}

/** The first problem of a document against a schema, as a 400 naming the key (`config.<path>`). */
function check(schema: TSchema, doc: unknown, prefix = ''): void {
  const first = Value.Errors(schema, doc).First();
  if (!first) return;
  const parts = first.path
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let key =
    prefix +
    parts
      .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
      .join('')
      .replace(/^\./, '');
  let message = inWords(first.schema, first.message);
  // A missing required key is reported at its parent path by some checks; say which key.
  const required = (first.schema as { required?: string[] }).required;
  if (first.value === undefined && parts.length) message = 'is required';
  else if (/Unexpected property/i.test(message)) message = 'is not a known key';
  else if (required && first.value && typeof first.value === 'object') {
    const missing = required.find((k) => !(k in (first.value as object)));
    if (missing) {
      key = key ? `${key}.${missing}` : missing;
      message = 'is required';
    }
  }
  throw badRequest(`config key "${key || '(document)'}" ${message}`, key ? `config.${key}` : 'config');
}

/** Parses YAML text and checks it against its type's schema; returns the document. */
export function validateConfig(type: ConfigType, text: string): unknown {
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA, json: false });
  } catch (err) {
    // Only the reason and position: the parser's excerpt could repeat a secret into a log or answer.
    const e = err as { reason?: string; mark?: { line?: number; column?: number } };
    throw badRequest(
      `config is not valid YAML: ${e.reason ?? 'syntax error'} (line ${(e.mark?.line ?? 0) + 1}, column ${(e.mark?.column ?? 0) + 1})`,
      'config',
    );
  }
  const isMap = doc !== null && typeof doc === 'object' && !Array.isArray(doc);
  switch (type) {
    case 'scan':
      return mapDoc(ScanConfigDoc, doc, isMap);
    case 'template': {
      mapDoc(TemplateConfigDoc, doc, isMap);
      const d = doc as Record<string, unknown[]>;
      if (!['ids', 'folders', 'tags', 'severities'].some((k) => d[k]?.length)) {
        throw badRequest(
          'config key "ids" is required: a template config selects templates by ids, folders, tags or severities',
          'config.ids',
        );
      }
      return doc;
    }
    case 'alerting': {
      if (!isMap) throw badRequest('an alerting config is a YAML mapping', 'config');
      const p = (doc as Record<string, unknown>).provider as string;
      if (!(ALERT_PROVIDERS as readonly string[]).includes(p)) {
        throw badRequest(`config key "provider" must be one of ${ALERT_PROVIDERS.join(', ')}`, 'config.provider');
      }
      check(AlertingDocs[p as keyof typeof AlertingDocs], doc);
      return doc;
    }
    case 'reporting': {
      if (!isMap) throw badRequest('a reporting config is a YAML mapping', 'config');
      const trackers = Object.keys(doc as object).filter((k) => (TRACKERS as readonly string[]).includes(k));
      if (trackers.length !== 1) {
        throw badRequest(
          `config needs exactly one tracker key (${TRACKERS.join(', ')}); found ${trackers.length}`,
          trackers[1] ? `config.${trackers[1]}` : 'config',
        );
      }
      check(ReportingDocs[trackers[0] as keyof typeof ReportingDocs], doc);
      return doc;
    }
    case 'cloudlist': {
      if (!Array.isArray(doc) || doc.length === 0)
        throw badRequest('a cloudlist config is a non-empty YAML list of providers', 'config');
      doc.forEach((entry, i) => {
        if (!entry || typeof entry !== 'object' || Array.isArray(entry))
          throw badRequest(`config key "[${i}]" must be a mapping`, `config[${i}]`);
        const e = entry as Record<string, unknown>;
        const keys = CLOUD_PROVIDERS[e.provider as string];
        if (!keys)
          throw badRequest(
            `config key "[${i}].provider" must be one of ${Object.keys(CLOUD_PROVIDERS).join(', ')}`,
            `config[${i}].provider`,
          );
        for (const k of Object.keys(e)) {
          if (k !== 'provider' && !keys.includes(k) && !CLOUD_OPTIONAL.includes(k))
            throw badRequest(`config key "[${i}].${k}" is not a known key`, `config[${i}].${k}`);
        }
        const missingOk = e.provider === 'cloudflare' && typeof e.email === 'string' && typeof e.api_key === 'string';
        for (const k of keys) {
          if (missingOk) break;
          if (typeof e[k] !== 'string' || !(e[k] as string).trim())
            throw badRequest(`config key "[${i}].${k}" is required (a string)`, `config[${i}].${k}`);
        }
      });
      return doc;
    }
    case 'subfinder':
      return mapDoc(SubfinderDoc, doc, isMap);
    case 'remediation':
      return mapDoc(RemediationDoc, doc, isMap);
    case 'vuln_score': {
      mapDoc(VulnScoreDoc, doc, isMap);
      (doc as { rules: Record<string, unknown>[] }).rules.forEach((r, i) => {
        if (!r.template && !r.tag && !r.host)
          throw badRequest(`config key "rules[${i}]" needs template, tag or host`, `config.rules[${i}]`);
      });
      return doc;
    }
  }
}

function mapDoc(schema: TSchema, doc: unknown, isMap: boolean): unknown {
  if (doc === null || doc === undefined) doc = {};
  else if (!isMap) throw badRequest('the config is a YAML mapping (key: value lines)', 'config');
  check(schema, doc);
  return doc;
}

/** provider_name shown with a config: the alerting provider, the tracker, or the first cloud provider. */
export function providerName(type: ConfigType, doc: unknown): string {
  if (type === 'alerting') return String((doc as { provider?: string }).provider ?? '');
  if (type === 'reporting')
    return Object.keys(doc as object).find((k) => (TRACKERS as readonly string[]).includes(k)) ?? '';
  if (type === 'cloudlist') return String((doc as { provider?: string }[])[0]?.provider ?? '');
  return '';
}
