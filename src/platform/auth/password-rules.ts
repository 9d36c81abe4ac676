// What a new password must be (NIST SP 800-63B, 5.1.1.2): long enough, not blank, and not one that
// attackers try first. No composition rules (a digit, a capital): length and the blocklist do the work.
// Only passwords being set are checked; stored ones keep working whatever they are.
//
// The blocklist is @zxcvbn-ts/language-common's list of common passwords (49,233 entries from breach
// corpora, MIT), loaded on first use. A password is refused when it is on it ignoring case and spaces,
// when it is a listed password with digits or symbols added around it ("password2024!"), when it repeats
// a short piece or a listed word ("aaaaaaaaaaaa", "abcabcabcabc", "letmeinletmein"), when it is a run of
// consecutive characters ("123456789012", "abcdefghijkl"), or when it is the account's own email address
// or its local part.
import { badRequest } from '../shared/errors.ts';

export const MIN_PASSWORD = 12;
export const MAX_PASSWORD = 200;

let common: Promise<ReadonlySet<string>> | undefined;

/** The common-password list, lower case, as a set (about 170 ms to load once). */
function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    (m) => new Set(m.dictionary['passwords-common'].map((p) => String(p).toLowerCase())),
  );
  return common;
}

/** Length as a person counts it: code points of the form the hash uses (NFKC). */
const lengthOf = (password: string) => [...password.normalize('NFKC')].length;

/** A short piece (or a listed password) written several times over. */
function repeats(p: string, list: ReadonlySet<string>): boolean {
  for (let size = 1; size <= p.length / 2; size++) {
    if (p.length % size !== 0) continue;
    const piece = p.slice(0, size);
    if (piece.repeat(p.length / size) === p) return size <= 4 || list.has(piece);
  }
  return false;
}

/** Every character one more (or one less) than the one before it: 0123..., abcd..., 9876... */
function isRun(p: string): boolean {
  if (p.length < 3) return false;
  const step = p.charCodeAt(1) - p.charCodeAt(0);
  if (step !== 1 && step !== -1) return false;
  for (let i = 2; i < p.length; i++) {
    const d = p.charCodeAt(i) - p.charCodeAt(i - 1);
    // Digit runs may wrap around (...7890...).
    if (d !== step && !(/\d/.test(p[i]!) && /\d/.test(p[i - 1]!) && d === -9 * step)) return false;
  }
  return true;
}

/**
 * Refuses a new password that breaks the rules with a 400 naming `param`. `email` is the account's, so
 * that neither the address nor its local part can be the password.
 */
export async function checkNewPassword(password: string, opts: { param?: string; email?: string } = {}): Promise<void> {
  const param = opts.param ?? 'password';
  const length = lengthOf(password);
  if (length < MIN_PASSWORD)
    throw badRequest(`${param} must have at least ${MIN_PASSWORD} characters (it has ${length})`, param);
  if (password.length > MAX_PASSWORD) throw badRequest(`${param} may have at most ${MAX_PASSWORD} characters`, param);
  if (!/\S/u.test(password)) throw badRequest(`${param} must not be only spaces`, param);

  const list = await commonPasswords();
  const lower = password.normalize('NFKC').toLowerCase();
  const compact = lower.replace(/\s+/gu, '');
  // The word inside added digits and symbols: "Password2024!" -> "password".
  const core = compact.replace(/^[\d\W_]+|[\d\W_]+$/gu, '');
  if (list.has(lower) || list.has(compact) || (core.length >= 4 && list.has(core))) {
    throw badRequest(
      `${param} is on a list of common passwords: choose another (a few unrelated words make a good one)`,
      param,
    );
  }
  if (repeats(compact, list)) throw badRequest(`${param} repeats a short piece of text: choose another`, param);
  if (isRun(compact)) throw badRequest(`${param} is a run of consecutive characters: choose another`, param);
  const email = opts.email?.toLowerCase();
  if (email && (compact === email || compact === email.split('@')[0])) {
    throw badRequest(`${param} must not be the account's email address`, param);
  }
}
