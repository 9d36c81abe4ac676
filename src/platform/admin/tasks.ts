// Operator tasks of the `vigil` command line that work on the platform's database: importing templates
// and feeds, issuing a key. They write through an `io` instead of the process's streams so the same code
// runs in the CLI process (its own database connection) or inside a running `vigil serve` (through the
// admin socket, when serve holds the embedded database).
import type { Db } from '../../db/connection.ts';
import type { TaskIO } from '../shared/task-io.ts';
import { importCatalogueAndRelink } from '../intel/catalogue-import.ts';
import { importIntel } from '../intel/importer.ts';
import { rebuildAll } from '../intel/recompute.ts';
import { linkTemplateFacts } from '../intel/template-link.ts';
import * as authStore from '../auth/store.ts';
import { issueKey } from '../auth/service.ts';
import { setTeamCreator } from '../team/team-creation.ts';
import { updateIntel, updateTemplates } from '../updates/service.ts';
import { listRuns } from '../updates/store.ts';

export type { TaskIO };

export interface TemplatesImportArgs {
  dir: string;
  early?: boolean;
  showFailed?: number;
}
export interface IntelImportArgs {
  inputs: string[];
  feed?: string;
  date?: string;
  json?: boolean;
}
export interface UsersKeyArgs {
  email: string;
}

type Task<A> = (db: Db, args: A, io: TaskIO) => Promise<void>;

/** A progress reporter: a TTY gets one line rewritten in place every `ttyMs`, a log a plain line every `logMs`. */
function progress(io: TaskIO, ttyMs: number, logMs: number) {
  let last = 0;
  return {
    say(line: string, force = false) {
      if (!force && Date.now() - last < (io.tty ? ttyMs : logMs)) return;
      last = Date.now();
      io.err(io.tty ? `\r\x1b[K${line}` : `${line}\n`);
    },
    end() {
      if (io.tty) io.err('\r\x1b[K');
    },
  };
}

/** A text progress bar: `[#####.....] 50% label`. */
export function bar(done: number, total: number, label: string, width = 24): string {
  const f = total > 0 ? Math.min(1, done / total) : 0;
  const n = Math.round(f * width);
  return `[${'#'.repeat(n)}${'.'.repeat(width - n)}] ${String(Math.floor(f * 100)).padStart(3)}% ${label}`;
}

export const templatesImport: Task<TemplatesImportArgs> = async (db, a, io) => {
  const p = progress(io, 100, 5_000);
  const s = await importCatalogueAndRelink(db, a.dir, {
    early: !!a.early,
    progressEvery: 100,
    onProgress: (x) => {
      const label = `${x.phase === 'read' ? 'reading' : 'writing'} ${x.done}/${x.total}`;
      p.say(io.tty ? bar(x.done, x.total, label) : label, x.done === x.total);
    },
  });
  p.end();
  const shown = Math.max(0, a.showFailed ?? 20);
  for (const f of s.failed.slice(0, shown)) io.err(`rejected ${f.file}: ${f.message}\n`);
  if (s.failed.length > shown)
    io.err(`... and ${s.failed.length - shown} more rejected (--show-failed ${s.failed.length})\n`);
  const where = s.ref ? ` at ${s.release_tag ?? 'untagged'} ${s.ref.slice(0, 12)}` : '';
  io.out(
    `imported ${s.templates} templates from ${s.dir}${where}${a.early ? ' (early access)' : ''} in ${(s.ms / 1000).toFixed(1)}s: ` +
      `${s.added} added, ${s.updated} updated, ${s.unchanged} unchanged, ${s.removed} removed, ` +
      `${s.failed.length} rejected, ${s.skipped} other YAML files skipped` +
      `${s.profiles === null ? '' : `, ${s.profiles} scan profiles kept`}; ` +
      `${s.intel.records_changed} vulnerability records relinked\n`,
  );
};

export const intelImport: Task<IntelImportArgs> = async (db, a, io) => {
  const p = progress(io, 500, 10_000);
  const report = await importIntel(db, a.inputs, {
    format: a.feed as never,
    date: a.date,
    onProgress: ({ feed, read }) => p.say(`${feed}: ${read} read`),
  });
  p.end();
  if (a.json) return void io.out(`${JSON.stringify(report, null, 2)}\n`);
  for (const f of report.feeds) {
    io.out(
      `${f.feed}: ${f.read} read, ${f.changed} changed, ${f.removed} removed, ${f.skipped} skipped (${f.documents} documents)\n`,
    );
    for (const s of f.skipped_examples.slice(0, 10)) io.out(`  skipped ${s.ref}: ${s.reason}\n`);
    if (f.skipped > 10) io.out(`  ... ${f.skipped - 10} more skipped (see intel_imports)\n`);
  }
  for (const u of report.unreadable.slice(0, 10)) io.out(`unreadable ${u.ref}: ${u.reason}\n`);
  if (report.unrecognised.length)
    io.out(
      `not a known feed format: ${report.unrecognised.slice(0, 10).join(', ')}${report.unrecognised.length > 10 ? ' ...' : ''}\n`,
    );
  io.out(
    `records: ${report.records_changed} changed, ${report.records_total} in total; ${report.templates_linked} linked to a template\n`,
  );
  if (!report.templates_linked)
    io.out('no CVE is linked to a template: `vigil templates import DIR` fills the template catalogue\n');
};

export const intelRebuild: Task<Record<string, never>> = async (db, _a, io) => {
  await linkTemplateFacts(db);
  io.out(`records changed: ${await rebuildAll(db)}\n`);
};

export const usersKey: Task<UsersKeyArgs> = async (db, a, io) => {
  const user = await authStore.findUserByEmail(db, a.email);
  if (!user) throw new Error(`no user with email ${a.email}`);
  io.out(`${await issueKey(db, user.id)}\n`);
};

export const usersList: Task<Record<string, never>> = async (db, _a, io) => {
  const rows = await authStore.listUserMemberships(db);
  for (const r of rows) io.out(`${r.email}\t${r.role ?? '-'}\t${r.team ?? '-'}\t${r.team_id ?? ''}\t${r.creates}\n`);
};

/** `vigil users allow-teams` / `deny-teams`: the operator's way to the instance owner's grant. */
function teamCreator(allowed: boolean): Task<UsersKeyArgs> {
  return async (db, a, io) => {
    await setTeamCreator(db, a.email, allowed);
    io.out(
      `${a.email} ${allowed ? 'may create teams (under VIGIL_TEAM_CREATION=allowed, the default)' : 'may no longer create teams'}\n`,
    );
  };
}
export const usersAllowTeams = teamCreator(true);
export const usersDenyTeams = teamCreator(false);

export interface TemplatesUpdateArgs {
  force?: boolean;
}
export interface IntelUpdateArgs {
  feeds?: string[];
}

export const templatesUpdate: Task<TemplatesUpdateArgs> = async (db, a, io) => {
  await updateTemplates(db, process.env, { force: a.force, io });
};

export const intelUpdate: Task<IntelUpdateArgs> = async (db, a, io) => {
  const r = await updateIntel(db, process.env, { feeds: a.feeds, io });
  const failed = r.feeds.filter((f) => f.status === 'failed');
  if (r.feeds.length === 0) throw new Error('no feed to update (see VIGIL_INTEL_FEEDS and VIGIL_FEED_<NAME>_URL)');
  if (failed.length)
    throw new Error(`${failed.length} of ${r.feeds.length} feeds failed: ${failed.map((f) => f.feed).join(', ')}`);
};

export const updatesList: Task<Record<string, never>> = async (db, _a, io) => {
  for (const r of await listRuns(db, 30)) {
    io.out(`${new Date(r.started_at).toISOString()}\t${r.kind}\t${r.status}\t${r.version ?? ''}\t${r.error ?? ''}\n`);
  }
};

/** The tasks by the name the admin socket knows them by. */
export const TASKS = {
  'templates import': templatesImport,
  'intel import': intelImport,
  'intel rebuild': intelRebuild,
  'users key': usersKey,
  'users list': usersList,
  'users allow-teams': usersAllowTeams,
  'users deny-teams': usersDenyTeams,
  'templates update': templatesUpdate,
  'intel update': intelUpdate,
  'updates list': updatesList,
} as const satisfies Record<string, Task<never>>;

export type TaskName = keyof typeof TASKS;
