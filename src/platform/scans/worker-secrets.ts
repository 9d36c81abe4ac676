// Local secrets of a worker process (`vigil worker --secret-file F --secret-team T`): loaded once in that
// process (dynamic logins run once, as in `vigil scan`) and applied only to the scan chunks of the teams
// they are bound to. They never reach the database, the server, any export, or another team's chunk.
import { loadScanSecrets, type SecretApplier } from '../../engine/index.ts';

interface BoundSecrets {
  applier: SecretApplier;
  teams: ReadonlySet<string>;
}

let current: BoundSecrets | undefined;

/**
 * Loads secret files for this process's scan chunks, bound to the given team ids (at least one);
 * throws on a broken file or a missing team so the worker does not start.
 */
export async function useSecretFiles(paths: string[], teams: string[], timeoutSeconds = 10): Promise<void> {
  const bound = new Set(teams.map((t) => t.trim()).filter(Boolean));
  if (bound.size === 0) {
    throw new Error('a secret file must be bound to the teams it belongs to: add --secret-team TEAM_ID (repeatable)');
  }
  const applier = await loadScanSecrets(paths, timeoutSeconds);
  current = applier ? { applier, teams: bound } : undefined;
}

export function setWorkerSecrets(secrets: SecretApplier | undefined, teams: string[] = []): void {
  current = secrets ? { applier: secrets, teams: new Set(teams) } : undefined;
}

/** The secrets that apply to a chunk of this team, or undefined: another team's chunk never sees them. */
export function workerSecrets(teamId: string): SecretApplier | undefined {
  return current && current.teams.has(teamId) ? current.applier : undefined;
}

/** Every secret value this process holds, whatever team it is bound to (cut from answers that apply none). */
export function allWorkerSecretValues(): string[] {
  return current ? current.applier.secretValues() : [];
}
