// compare_versions with hashicorp/go-version semantics: versions padded to three segments, pre-releases
// sort before releases, constraints "=, !=, >, <, >=, <=, ~>" joined by commas (all must hold).
import { DslError } from '../errors.ts';
import { toStr } from '../values.ts';
import { define, invalid } from './registry.ts';

const VERSION_RAW =
  'v?([0-9]+(\\.[0-9]+)*?)(-([0-9]+[0-9A-Za-z\\-~]*(\\.[0-9A-Za-z\\-~]+)*)|(-?([A-Za-z\\-~]+[0-9A-Za-z\\-~]*(\\.[0-9A-Za-z\\-~]+)*)))?(\\+([0-9A-Za-z\\-~]+(\\.[0-9A-Za-z\\-~]+)*))?';
const VERSION_RE = new RegExp(`^${VERSION_RAW}$`);
const CONSTRAINT_RE = new RegExp(`^\\s*(=|!=|>|<|>=|<=|~>)?\\s*(${VERSION_RAW})\\s*$`);

export interface Version {
  segments: bigint[];
  si: number; // number of segments actually written
  pre: string;
}

export function parseVersion(v: string): Version {
  const m = VERSION_RE.exec(v.trim());
  if (!m) throw new DslError(`Malformed version: ${v}`);
  const parts = m[1].split('.');
  const segments = parts.map((p) => BigInt(p));
  while (segments.length < 3) segments.push(0n);
  return { segments, si: parts.length, pre: m[7] || m[4] || '' };
}

function comparePart(a: string, b: string): number {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) return Math.sign(Number(BigInt(a) - BigInt(b)));
  if (an) return -1;
  if (bn) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparePre(a: string, b: string): number {
  if (a === b) return 0;
  const pa = a.split('.');
  const pb = b.split('.');
  const n = Math.max(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    if (pa[i] === undefined) return -1;
    if (pb[i] === undefined) return 1;
    const c = comparePart(pa[i], pb[i]);
    if (c !== 0) return c;
  }
  return 0;
}

export function compareVersions(a: Version, b: Version): number {
  const n = Math.max(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const x = a.segments[i] ?? 0n;
    const y = b.segments[i] ?? 0n;
    if (x !== y) return x > y ? 1 : -1;
  }
  if (!a.pre && !b.pre) return 0;
  if (!a.pre) return 1;
  if (!b.pre) return -1;
  return comparePre(a.pre, b.pre);
}

function prereleaseCheck(v: Version, c: Version): boolean {
  if (c.pre && v.pre)
    return v.segments.every((s, i) => s === (c.segments[i] ?? 0n)) && v.segments.length === c.segments.length;
  if (!c.pre && v.pre) return false;
  return true;
}

function check(op: string, v: Version, c: Version): boolean {
  const cmp = compareVersions(v, c);
  switch (op) {
    case '':
    case '=':
      return cmp === 0;
    case '!=':
      return cmp !== 0;
    case '>':
      return prereleaseCheck(v, c) && cmp > 0;
    case '<':
      return prereleaseCheck(v, c) && cmp < 0;
    case '>=':
      return prereleaseCheck(v, c) && cmp >= 0;
    case '<=':
      return prereleaseCheck(v, c) && cmp <= 0;
    default: {
      // ~> pessimistic
      if (!prereleaseCheck(v, c) || (c.pre && !v.pre)) return false;
      if (cmp < 0) return false;
      if (c.si > v.si) return false;
      for (let i = 0; i < c.si - 1; i++) if (v.segments[i] !== c.segments[i]) return false;
      return !(c.segments[c.si - 1] > v.segments[c.si - 1]);
    }
  }
}

export function checkConstraints(version: string, constraints: string): boolean {
  const v = parseVersion(version);
  return constraints.split(',').every((part) => {
    const m = CONSTRAINT_RE.exec(part);
    if (!m) throw new DslError(`Malformed constraint: ${part}`);
    return check(m[1] ?? '', v, parseVersion(m[2]));
  });
}

export function registerVersions(): void {
  define('compare_versions', undefined, (a) => {
    if (a.length < 2) throw invalid('compare_versions');
    return checkConstraints(toStr(a[0]), a.slice(1).map(toStr).join(','));
  });
}
