// What the cloud providers' listings produce. Standalone: nothing here knows about the platform.

/** One entry of a cloudlist provider-config.yaml: `provider`, an optional `id`, and the credential keys. */
export type ProviderEntry = Record<string, string>;

/** A public host or address a provider knows: a DNS name (with the address its record gives, if any) or an address. */
export interface CloudAsset {
  /** The provider as named in the config (aws, gcp, azure, do, scw, ...). */
  provider: string;
  /** The entry's `id` (a label the user gave the account), if any. */
  id?: string;
  /** What kind of resource it came from: instance, dns, elb, cloudfront, publicip, ... */
  service: string;
  /** A DNS name (records, app domains). */
  host?: string;
  /** A public IPv4 or IPv6 address (instances, A/AAAA records). */
  ip?: string;
}

export interface CloudListOptions {
  /** Replaces a provider's API base URL (provider name -> URL without trailing slash): mirrors, tests. */
  baseUrls?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Pages fetched per listing at most (a guard against an API that never ends; default 1000). */
  maxPages?: number;
}

export interface CloudProviderClient {
  /** The provider's own name (cloudlist calls DigitalOcean `do`). */
  name: string;
  /** The public API's base URL. */
  base: string;
  /**
   * Further APIs of the provider by name, as URL templates (`{region}`-style placeholders that the client
   * fills): AWS's `ec2` is `https://ec2.{region}.amazonaws.com`. Each is replaced by a `<name>.<api>` base URL.
   */
  apis?: Record<string, string>;
  /** Request headers that authenticate as the entry; a string: what is missing from the entry. */
  auth(entry: ProviderEntry): Record<string, string> | string;
  list(entry: ProviderEntry, api: ProviderApi): Promise<CloudAsset[]>;
}

export interface ProviderApi {
  get: ApiGetter;
  /** The same GET, with the answer's headers (for APIs that page through them). */
  request(pathAndQuery: string, extraHeaders?: Record<string, string>): Promise<{ doc: any; headers: Headers }>;
  /** The most pages one listing may take. */
  maxPages: number;
  /** The URL of one of the client's `apis` (replaced as the options say), placeholders filled as given (raw). */
  url(api: string, vars?: Record<string, string>): string;
  /** Any request; the caller authenticates it (signed requests, OAuth tokens). */
  send: ApiSend;
  /** A value to keep out of notices from now on (an access token the provider handed out). */
  secret(value: string): void;
  /** A part of the listing that failed while the rest went on (a region, a project, a service). */
  notice(message: string): void;
}

export type ApiSend = (
  url: string,
  init?: { method?: string; headers?: Record<string, string>; body?: string },
) => Promise<{ text: string; headers: Headers }>;

/** GET a JSON document from the provider's API (path relative to its base, with query), with its auth headers. */
export type ApiGetter = (pathAndQuery: string, extraHeaders?: Record<string, string>) => Promise<any>;
