// The secret file model: credentials the engine adds to requests for targets that need a login.
// Field names follow the file's keys in camelCase (`domains-regex` -> domainsRegex).

export const SECRET_TYPES = ['basicauth', 'query', 'bearertoken', 'header', 'cookie'] as const;
export type SecretType = (typeof SECRET_TYPES)[number];

export interface KeyValue {
  key: string;
  value: string;
}

/** A cookie as written in the file: key + value, or a raw `name=value` pair (maybe `Set-Cookie: ...`). */
export interface CookieSpec {
  key?: string;
  value?: string;
  raw?: string;
}

export interface StaticSecret {
  type: SecretType;
  /** Exact host[:port] names, lower case, ports 80/443 dropped. Empty when the entry uses domainsRegex. */
  domains: string[];
  domainsRegex: RegExp[];
  username?: string;
  password?: string;
  token?: string;
  headers?: KeyValue[];
  params?: KeyValue[];
  cookies?: CookieSpec[];
}

/** A login template whose extracted values fill the `{{name}}` placeholders of a static secret. */
export interface DynamicSecret extends StaticSecret {
  /** Absolute path of the login template (resolved against the templates directory). */
  template: string;
  variables: KeyValue[];
  input?: string;
}

/** Where an entry came from, for error messages: `static[2]` of one file. */
export interface EntryOrigin {
  file: string;
  list: 'static' | 'dynamic';
  index: number;
}

export interface SecretEntry {
  origin: EntryOrigin;
  secret: StaticSecret;
  /** Present for dynamic entries. */
  dynamic?: DynamicSecret;
}

/** One problem found in a secret file. `list` and `index` are absent for file-level problems. */
export interface SecretIssue {
  file: string;
  list?: 'static' | 'dynamic';
  index?: number;
  field: string;
  reason: string;
}

/** The request parts a secret may change. */
export interface SecretTargetRequest {
  url: URL;
  headers: Record<string, string>;
}

/** What the runner calls for every request it sends (unless the template sets skip-secret-file). */
export interface SecretApplier {
  apply(req: SecretTargetRequest): void;
  /** Every concrete secret value, so output can replace them with [REDACTED]. */
  secretValues(): string[];
}

/** Runs one login template and returns every value it extracted (internal extractors included). */
export type LoginRunner = (login: {
  template: string;
  input?: string;
  variables: Record<string, string>;
}) => Promise<Record<string, unknown>>;
