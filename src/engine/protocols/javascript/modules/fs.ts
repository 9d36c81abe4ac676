// nuclei/fs (pkg/js/libs/fs): ListDir(path[, itemType]) -> names ('file' or 'dir' keeps one kind),
// ReadFile(path) -> bytes, ReadFileAsString(path) -> text, ReadFilesFromDir(dir) -> the text of each file
// in it. As nuclei without -lfa (protocolstate.NormalizePath), a relative path is taken from the templates
// folder the template came from, and any path must resolve inside that folder. Here the check is on the
// real path (symlinks resolved, so a link cannot lead out), a template read from text (an upload, a
// private template, the platform's stored ones) has no folder and reads nothing, and reads are capped:
// regular files only, MAX_FILE bytes each, MAX_TOTAL per script run, MAX_ENTRIES names per listing.
import { constants, promises as fsp } from 'node:fs';
import path from 'node:path';
import { HostEnv, RefusedError, text, type HostOp } from '../host.ts';

export const FS_LIMITS = {
  /** One file read. */
  maxFile: 1024 * 1024,
  /** Everything one script reads. */
  maxTotal: 16 * 1024 * 1024,
  /** Names one listing returns (and files ReadFilesFromDir reads). */
  maxEntries: 1000,
};

/** The real path of `p` inside the run's templates folder, or a refusal saying why not. */
async function confined(env: HostEnv, p: unknown): Promise<string> {
  const root = env.filesRoot;
  const asked = text(p);
  if (root === undefined)
    throw new RefusedError(
      `fs: ${asked} refused: this template was not read from a templates folder, so it may not read files`,
    );
  if (asked === '' || asked.includes('\0'))
    throw new RefusedError('fs: an empty path or one with a NUL byte is refused');
  const realRoot = await fsp.realpath(root);
  const joined = path.isAbsolute(asked) ? path.resolve(asked) : path.resolve(realRoot, asked);
  const outside = (f: string) => {
    const rel = path.relative(realRoot, f);
    return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
  };
  if (outside(joined)) throw new RefusedError(`fs: ${asked} refused: it is outside the templates folder`);
  let real: string;
  try {
    real = await fsp.realpath(joined);
  } catch {
    throw new Error(`fs: ${asked}: no such file or directory`);
  }
  if (outside(real)) throw new RefusedError(`fs: ${asked} refused: it leads outside the templates folder`);
  return real;
}

async function listDir(env: HostEnv, p: unknown, itemType: unknown): Promise<string[] | null> {
  const dir = await confined(env, p);
  const kind = text(itemType);
  const entries = await fsp.readdir(dir, { withFileTypes: true });
  const names: string[] = [];
  // Go's os.ReadDir order (by name, bytewise); a symlink is neither 'file' nor 'dir' until read.
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (kind === 'file' && e.isDirectory()) continue;
    if (kind === 'dir' && !e.isDirectory()) continue;
    if (names.length >= FS_LIMITS.maxEntries)
      throw new RefusedError(`fs: ${text(p)} has more than ${FS_LIMITS.maxEntries} entries`);
    names.push(e.name);
  }
  return names.length > 0 ? names : null; // Go's nil slice
}

async function readFile(env: HostEnv, p: unknown): Promise<Buffer> {
  const file = await confined(env, p);
  // The real path has no link left; O_NOFOLLOW refuses one swapped in since, O_NONBLOCK a FIFO's wait.
  const handle = await fsp.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new RefusedError(`fs: ${text(p)} refused: not a regular file`);
    if (st.size > FS_LIMITS.maxFile)
      throw new RefusedError(`fs: ${text(p)} refused: ${st.size} bytes, more than ${FS_LIMITS.maxFile}`);
    env.chargeFileBytes(st.size, FS_LIMITS.maxTotal);
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return buf.subarray(0, got);
  } finally {
    await handle.close();
  }
}

async function readFilesFromDir(env: HostEnv, dir: unknown): Promise<string[] | null> {
  const names = (await listDir(env, dir, 'file')) ?? [];
  const out: string[] = [];
  for (const n of names) out.push((await readFile(env, `${text(dir)}/${n}`)).toString('utf8'));
  return out.length > 0 ? out : null;
}

export const fsOps: Record<string, HostOp> = {
  'fs.ListDir': (env, [p, t]) => listDir(env, p, t),
  'fs.ReadFile': (env, [p]) => readFile(env, p),
  'fs.ReadFileAsString': async (env, [p]) => (await readFile(env, p)).toString('utf8'),
  'fs.ReadFilesFromDir': (env, [d]) => readFilesFromDir(env, d),
};
