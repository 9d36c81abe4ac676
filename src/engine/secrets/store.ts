// The loaded secret file(s): picks the one secret for each target, runs dynamic logins once, applies
// secrets to requests and lists the values output must redact.
import { applySecret } from './apply.ts';
import { LoginConfigError, resolveDynamic, SecretLoginError } from './dynamic.ts';
import { orderForRedaction, valuesOfSecret } from './redact.ts';
import { pickForKey, targetKey } from './scope.ts';
import type { LoginRunner, SecretApplier, SecretEntry, SecretTargetRequest, StaticSecret } from './types.ts';

export interface PrepareOptions {
  /** Runs a login template; see loginWithRunner() for the engine's runner. */
  login: LoginRunner;
}

export class SecretStore implements SecretApplier {
  readonly entries: readonly SecretEntry[];
  /** Logins in flight or done, one per dynamic entry for the life of the process. */
  private readonly logins = new Map<SecretEntry, Promise<StaticSecret>>();
  private readonly resolved = new Map<SecretEntry, StaticSecret>();
  private readonly byTarget = new Map<string, SecretEntry | null>();
  private redactionCache: string[] | undefined;

  constructor(entries: readonly SecretEntry[]) {
    this.entries = entries;
  }

  get dynamicEntries(): SecretEntry[] {
    return this.entries.filter((e) => e.dynamic);
  }

  /**
   * Runs every login template (concurrently, each at most once however often this is called) and
   * fills the templated secrets. Rejects with SecretLoginError when a login fails or extracts nothing;
   * callers stop the scan before it starts.
   */
  async prepare(opts: PrepareOptions): Promise<void> {
    await Promise.all(this.dynamicEntries.map((e) => this.login(e, opts.login)));
  }

  /** The memoised login of one dynamic entry. */
  login(entry: SecretEntry, run: LoginRunner): Promise<StaticSecret> {
    let pending = this.logins.get(entry);
    if (!pending) {
      pending = this.runLogin(entry, run);
      this.logins.set(entry, pending);
    }
    return pending;
  }

  private async runLogin(entry: SecretEntry, run: LoginRunner): Promise<StaticSecret> {
    const dyn = entry.dynamic!;
    let extracted: Record<string, unknown>;
    try {
      extracted = await run({
        template: dyn.template,
        input: dyn.input,
        variables: Object.fromEntries(dyn.variables.map((v) => [v.key, v.value])),
      });
    } catch (err) {
      if (err instanceof SecretLoginError) throw err;
      if (err instanceof LoginConfigError) throw new SecretLoginError(entry.origin, dyn.template, err.message);
      throw new SecretLoginError(
        entry.origin,
        dyn.template,
        `the login failed: ${(err as Error).message ?? String(err)}`,
      );
    }
    const secret = resolveDynamic(entry.origin, dyn, extracted);
    this.resolved.set(entry, secret);
    this.redactionCache = undefined;
    return secret;
  }

  /** The entry whose scope takes this target, if any (domains before domains-regex, file order). */
  entryFor(url: URL): SecretEntry | undefined {
    const key = targetKey(url);
    let entry = this.byTarget.get(key);
    if (entry === undefined) {
      entry = pickForKey(this.entries, key) ?? null;
      this.byTarget.set(key, entry);
    }
    return entry ?? undefined;
  }

  /** The concrete secret for a target; throws when its dynamic login has not completed. */
  secretFor(url: URL): StaticSecret | undefined {
    const entry = this.entryFor(url);
    if (!entry) return undefined;
    if (!entry.dynamic) return entry.secret;
    const secret = this.resolved.get(entry);
    if (!secret) {
      const { file, list, index } = entry.origin;
      throw new Error(`secret file ${file}: ${list}[${index}]: login has not run; call prepare() before scanning`);
    }
    return secret;
  }

  apply(req: SecretTargetRequest): void {
    const secret = this.secretFor(req.url);
    if (secret) applySecret(secret, req);
  }

  secretValues(): string[] {
    if (!this.redactionCache) {
      const values: string[] = [];
      for (const e of this.entries) {
        const secret = e.dynamic ? this.resolved.get(e) : e.secret;
        if (secret) values.push(...valuesOfSecret(secret));
      }
      this.redactionCache = orderForRedaction(values);
    }
    return [...this.redactionCache];
  }
}
