// A form per provider for alerting configs (webhook, Slack, Teams, email) and per tracker for reporting
// configs (GitHub, GitLab, Jira, Linear, Gitea), over the same YAML text the editor shows: each change
// writes the text again (docs/configs.md has the keys), so the YAML tab and the form never disagree and
// keys the form does not show (allow-list, deny-list) are kept. A problem is shown in words under its
// field: the server's 400 (or the test's answer) names the key, `config.webhook.url`, mapped here to the
// field; required fields left empty are caught before anything is sent.
import {
  Checkbox,
  Group,
  MultiSelect,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  TagsInput,
  TextInput,
  Textarea,
} from '@mantine/core';
import yaml from 'js-yaml';

type Kind = 'text' | 'url' | 'secret' | 'number' | 'bool' | 'list' | 'select' | 'textarea' | 'headers';
interface Field {
  key: string;
  label: string;
  kind: Kind;
  required?: boolean;
  placeholder?: string;
  description?: string;
  options?: string[];
}

export const ALERT_EVENTS = [
  'scan_running',
  'scan_finished',
  'scan_failed',
  'scan_stopped',
  'new_finding',
  'new_asset',
  'asset_policy_match',
];
const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical', 'unknown'];

const ALERT_PROVIDERS: Record<string, { label: string; fields: Field[] }> = {
  webhook: {
    label: 'Webhook',
    fields: [
      { key: 'url', label: 'URL', kind: 'url', required: true, placeholder: 'https://hooks.example.com/vigil' },
      { key: 'method', label: 'Method', kind: 'select', options: ['POST', 'PUT', 'PATCH'], placeholder: 'POST' },
      {
        key: 'headers',
        label: 'Headers',
        kind: 'headers',
        placeholder: 'Authorization: Bearer ...',
        description: 'one "Name: value" per line',
      },
      {
        key: 'body',
        label: 'Body',
        kind: 'textarea',
        placeholder: '{"text": "{{message}}"}',
        description: 'left empty: the alert as JSON; {{key}} placeholders take the alert’s fields',
      },
    ],
  },
  slack: {
    label: 'Slack',
    fields: [
      {
        key: 'webhook-url',
        label: 'Incoming webhook URL',
        kind: 'url',
        required: true,
        placeholder: 'https://hooks.slack.com/services/...',
      },
      { key: 'channel', label: 'Channel', kind: 'text', placeholder: '#security' },
      { key: 'username', label: 'Username', kind: 'text', placeholder: 'vigil' },
    ],
  },
  teams: {
    label: 'Microsoft Teams',
    fields: [
      {
        key: 'webhook-url',
        label: 'Incoming webhook URL',
        kind: 'url',
        required: true,
        placeholder: 'https://example.webhook.office.com/...',
      },
    ],
  },
  email: {
    label: 'Email (SMTP)',
    fields: [
      { key: 'host', label: 'SMTP server', kind: 'text', required: true, placeholder: 'smtp.example.com' },
      { key: 'port', label: 'Port', kind: 'number', required: true, placeholder: '587' },
      { key: 'secure', label: 'TLS from the start (port 465); otherwise STARTTLS when offered', kind: 'bool' },
      { key: 'username', label: 'Username', kind: 'text' },
      { key: 'password', label: 'Password', kind: 'secret' },
      { key: 'from', label: 'From', kind: 'text', required: true, placeholder: 'vigil@example.com' },
      { key: 'to', label: 'To', kind: 'list', required: true, placeholder: 'secops@example.com, Enter' },
      { key: 'subject', label: 'Subject', kind: 'text', placeholder: 'Vigil: {{event}} - {{scan_name}}' },
    ],
  },
};

const TRACKERS: Record<string, { label: string; fields: Field[] }> = {
  github: {
    label: 'GitHub',
    fields: [
      { key: 'owner', label: 'Owner', kind: 'text', required: true, placeholder: 'acme' },
      { key: 'project-name', label: 'Repository', kind: 'text', required: true, placeholder: 'web' },
      { key: 'token', label: 'Token', kind: 'secret', required: true },
      { key: 'issue-label', label: 'Issue label', kind: 'text', placeholder: 'vigil' },
      { key: 'base-url', label: 'API URL (GitHub Enterprise)', kind: 'url', placeholder: 'https://api.github.com' },
    ],
  },
  gitlab: {
    label: 'GitLab',
    fields: [
      { key: 'project-name', label: 'Project id or path', kind: 'text', required: true, placeholder: 'acme/web' },
      { key: 'token', label: 'Token', kind: 'secret', required: true },
      { key: 'issue-label', label: 'Issue label', kind: 'text', placeholder: 'vigil' },
      { key: 'base-url', label: 'GitLab URL', kind: 'url', placeholder: 'https://gitlab.com' },
    ],
  },
  jira: {
    label: 'Jira',
    fields: [
      { key: 'url', label: 'Jira URL', kind: 'url', required: true, placeholder: 'https://acme.atlassian.net' },
      { key: 'project-name', label: 'Project key', kind: 'text', required: true, placeholder: 'SEC' },
      { key: 'email', label: 'Account email (Basic auth; empty: Bearer token)', kind: 'text' },
      { key: 'token', label: 'API token', kind: 'secret', required: true },
      { key: 'issue-type', label: 'Issue type', kind: 'text', placeholder: 'Bug' },
    ],
  },
  linear: {
    label: 'Linear',
    fields: [
      { key: 'api-key', label: 'API key', kind: 'secret', required: true },
      { key: 'team-id', label: 'Team id', kind: 'text', required: true },
      { key: 'project-id', label: 'Project id', kind: 'text' },
      { key: 'base-url', label: 'API URL', kind: 'url', placeholder: 'https://api.linear.app' },
    ],
  },
  gitea: {
    label: 'Gitea',
    fields: [
      { key: 'base-url', label: 'Gitea URL', kind: 'url', required: true, placeholder: 'https://gitea.example.com' },
      { key: 'project-owner', label: 'Owner', kind: 'text', required: true },
      { key: 'project-name', label: 'Repository', kind: 'text', required: true },
      { key: 'token', label: 'Token', kind: 'secret', required: true },
      { key: 'issue-label', label: 'Issue label', kind: 'text' },
    ],
  },
};

type Doc = Record<string, any>;

/** The text as a mapping, or undefined when it is not one (then only the YAML tab can show it). */
export function parseDoc(text: string): Doc | undefined {
  try {
    const d = yaml.load(text, { schema: yaml.CORE_SCHEMA });
    if (d === null || d === undefined) return {};
    return typeof d === 'object' && !Array.isArray(d) ? (d as Doc) : undefined;
  } catch {
    return undefined;
  }
}

const dump = (d: Doc) => yaml.dump(d, { lineWidth: -1, noRefs: true });

/** The block key of a document: the alerting provider or the (first) tracker named in it. */
function blockOf(type: string, d: Doc): string {
  if (type === 'alerting')
    return typeof d.provider === 'string' && ALERT_PROVIDERS[d.provider] ? d.provider : 'webhook';
  return Object.keys(d).find((k) => TRACKERS[k]) ?? 'github';
}

/**
 * The field a server problem belongs to: `config.webhook.url` -> `webhook.url`, `config.events[0]` ->
 * `events`, `config.email.to[1]` -> `email.to`; the message without its `config key "..."` lead.
 */
export function problemAt(param: string | undefined, message: string): { path: string; text: string } | undefined {
  if (!param?.startsWith('config.')) return undefined;
  const path = param.slice('config.'.length).replace(/\[\d+\]$/, '');
  return { path, text: message.replace(/^config key "[^"]*" /, '') };
}

/** Required fields left empty, as field errors (checked before a save or a test is sent). */
export function missingFields(type: string, text: string): Record<string, string> {
  const d = parseDoc(text);
  if (!d) return {};
  const out: Record<string, string> = {};
  const block = blockOf(type, d);
  if (type === 'alerting' && !(Array.isArray(d.events) && d.events.length)) out.events = 'pick at least one event';
  const fields = (type === 'alerting' ? ALERT_PROVIDERS : TRACKERS)[block]!.fields;
  const own = (d[block] ?? {}) as Doc;
  for (const f of fields) {
    const v = own[f.key];
    if (f.required && (v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length)))
      out[`${block}.${f.key}`] = 'is required';
  }
  return out;
}

function headersText(v: unknown): string {
  if (!v || typeof v !== 'object') return '';
  return Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${k}: ${String(x)}`)
    .join('\n');
}

function headersValue(text: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return Object.keys(out).length ? out : undefined;
}

export function IntegrationForm({
  type,
  text,
  onChange,
  errors,
  disabled,
}: {
  type: 'alerting' | 'reporting';
  text: string;
  onChange: (text: string) => void;
  errors: Record<string, string>;
  disabled?: boolean;
}) {
  const doc = parseDoc(text);
  if (!doc)
    return (
      <TextInput
        readOnly
        label="Form"
        value=""
        error="The text is not a YAML mapping: fix it in the YAML tab to use the form"
      />
    );
  const block = blockOf(type, doc);
  const own = (doc[block] ?? {}) as Doc;
  const providers = type === 'alerting' ? ALERT_PROVIDERS : TRACKERS;

  const write = (d: Doc) => onChange(dump(d));
  const setTop = (key: string, value: unknown) => {
    const d = { ...doc };
    if (value === undefined || (Array.isArray(value) && !value.length && key !== 'events')) delete d[key];
    else d[key] = value;
    write(d);
  };
  const setOwn = (key: string, value: unknown) => {
    const b = { ...own };
    if (value === undefined || value === '' || (Array.isArray(value) && !value.length)) delete b[key];
    else b[key] = value;
    write({ ...doc, [block]: b });
  };
  // Another provider or tracker: its block replaces the old one (fields of the same name carry over).
  const pickBlock = (next: string | null) => {
    if (!next || next === block) return;
    const keep = Object.fromEntries(
      Object.entries(own).filter(([k]) => providers[next]!.fields.some((f) => f.key === k)),
    );
    const d: Doc = {};
    for (const [k, v] of Object.entries(doc)) if (k !== block) d[k] = v;
    if (type === 'alerting') d.provider = next;
    d[next] = keep;
    write(type === 'alerting' ? { provider: next, ...d } : { [next]: keep, ...d });
  };

  const field = (f: Field) => {
    const path = `${block}.${f.key}`;
    const common = {
      key: path,
      label: f.label,
      description: f.description,
      placeholder: f.placeholder,
      withAsterisk: f.required,
      error: errors[path],
      disabled,
      'data-field': path,
    };
    const v = own[f.key];
    switch (f.kind) {
      case 'secret':
        return (
          <PasswordInput
            {...common}
            value={typeof v === 'string' ? v : ''}
            onChange={(e) => setOwn(f.key, e.currentTarget.value)}
          />
        );
      case 'number':
        return (
          <NumberInput
            {...common}
            value={typeof v === 'number' ? v : ''}
            allowDecimal={false}
            onChange={(x) => setOwn(f.key, typeof x === 'number' ? x : undefined)}
            w={160}
          />
        );
      case 'bool':
        return (
          <Checkbox
            key={path}
            label={f.label}
            checked={v === true}
            disabled={disabled}
            onChange={(e) => setOwn(f.key, e.currentTarget.checked ? true : undefined)}
          />
        );
      case 'list':
        return (
          <TagsInput
            {...common}
            value={Array.isArray(v) ? v.map(String) : []}
            onChange={(x) => setOwn(f.key, x)}
            splitChars={[',', ' ']}
          />
        );
      case 'select':
        return (
          <Select
            {...common}
            data={f.options!}
            value={typeof v === 'string' ? v : null}
            onChange={(x) => setOwn(f.key, x ?? undefined)}
            clearable
            w={160}
          />
        );
      case 'textarea':
        return (
          <Textarea
            {...common}
            autosize
            minRows={2}
            value={typeof v === 'string' ? v : ''}
            onChange={(e) => setOwn(f.key, e.currentTarget.value)}
          />
        );
      case 'headers':
        return (
          <Textarea
            {...common}
            autosize
            minRows={2}
            defaultValue={headersText(v)}
            onBlur={(e) => setOwn(f.key, headersValue(e.currentTarget.value))}
          />
        );
      default:
        return (
          <TextInput
            {...common}
            type={f.kind === 'url' ? 'url' : 'text'}
            value={typeof v === 'string' ? v : ''}
            onChange={(e) => setOwn(f.key, e.currentTarget.value)}
          />
        );
    }
  };

  return (
    <Stack gap="sm" data-testid="integration-form">
      <Select
        label={type === 'alerting' ? 'Provider' : 'Tracker'}
        data={Object.entries(providers).map(([value, p]) => ({ value, label: p.label }))}
        value={block}
        onChange={pickBlock}
        allowDeselect={false}
        disabled={disabled}
        w={260}
        data-testid="integration-provider"
      />
      {type === 'alerting' && (
        <Group align="flex-start" grow>
          <MultiSelect
            label="Events"
            withAsterisk
            data={ALERT_EVENTS}
            value={Array.isArray(doc.events) ? doc.events.map(String) : []}
            onChange={(x) => setTop('events', x)}
            error={errors.events}
            disabled={disabled}
            data-field="events"
          />
          <Select
            label="Lowest severity for new findings"
            data={SEVERITIES}
            value={typeof doc['min-severity'] === 'string' ? doc['min-severity'] : null}
            onChange={(x) => setTop('min-severity', x ?? undefined)}
            placeholder="info"
            clearable
            error={errors['min-severity']}
            disabled={disabled}
            maw={260}
          />
        </Group>
      )}
      {providers[block]!.fields.map(field)}
    </Stack>
  );
}
