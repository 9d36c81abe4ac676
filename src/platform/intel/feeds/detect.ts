// Which feed format a document is, from its content (so a folder of mixed feeds imports in one go), and
// the parser for each format.
import type { Doc, FeedFormat, Parser } from './types.ts';
import { isCve5, parseCve5 } from './cve5.ts';
import { isNvd2, parseNvd2 } from './nvd2.ts';
import { isKev, parseKev } from './kev.ts';
import { isVulncheckKev, parseVulncheckKev } from './vulncheck-kev.ts';
import { isEpss, parseEpss } from './epss.ts';
import { isPocs, parsePocs } from './pocs.ts';
import { isNomisec, parseNomisec } from './nomisec.ts';
import { isCweNames, parseCweNames } from './cwe.ts';
import { isBounty, parseBounty } from './bounty.ts';
import { isExposure, parseExposure } from './exposure.ts';

export const PARSERS: Record<FeedFormat, Parser> = {
  cve5: parseCve5,
  nvd2: parseNvd2,
  kev: parseKev,
  vulncheck_kev: parseVulncheckKev,
  epss: parseEpss,
  pocs: parsePocs,
  nomisec: parseNomisec,
  cwe: parseCweNames,
  bounty: parseBounty,
  exposure: parseExposure,
};

const JSON_CHECKS: [FeedFormat, (json: unknown) => boolean][] = [
  ['cve5', isCve5],
  ['nvd2', isNvd2],
  ['kev', isKev],
  ['vulncheck_kev', isVulncheckKev],
  ['pocs', isPocs],
  ['nomisec', isNomisec],
  ['cwe', isCweNames],
  ['exposure', isExposure],
];

/** The format of a document, or undefined when it is none of the known feeds. */
export function detectFormat(doc: Doc): FeedFormat | undefined {
  const head = doc.text.trimStart();
  if (isEpss(head)) return 'epss';
  if (isBounty(head)) return 'bounty';
  if (!head.startsWith('{') && !head.startsWith('[')) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(doc.text);
  } catch {
    // JSON Lines (exposure): judge by the first line
    try {
      json = JSON.parse(head.split(/\r?\n/)[0]!);
    } catch {
      return undefined;
    }
  }
  return JSON_CHECKS.find(([, check]) => check(json))?.[0];
}
