// Where updates come from: the official feeds and the public template releases, each overridable by an
// environment variable (air-gapped mirrors, tests with local servers).
import type { FeedFormat } from '../intel/feeds/types.ts';

export interface FeedSource {
  feed: FeedFormat;
  url: string;
  /** Sent as `Authorization: Bearer ...`; never recorded or logged. */
  token?: string;
}

// The official addresses; `vigil intel import --feed NAME` with no file uses them too.
export const OFFICIAL_FEED_URLS: Partial<Record<FeedFormat, string>> = {
  kev: 'https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json',
  epss: 'https://epss.empiricalsecurity.com/epss_scores-current.csv.gz',
  cve5: 'https://github.com/CVEProject/cvelistV5/archive/refs/heads/main.zip',
  nvd2: 'https://services.nvd.nist.gov/rest/json/cves/2.0?resultsPerPage=2000',
  nomisec: 'https://github.com/nomi-sec/PoC-in-GitHub/archive/refs/heads/master.zip',
  vulncheck_kev: 'https://api.vulncheck.com/v3/index/vulncheck-kev',
};

// Updated by default: the CVE list, KEV, EPSS, PoCs; VulnCheck KEV when a token is set; CWE names and
// the other formats when their URL is configured (they have no official JSON address).
const DEFAULT_FEEDS: FeedFormat[] = [
  'cve5',
  'kev',
  'vulncheck_kev',
  'epss',
  'nomisec',
  'cwe',
  'pocs',
  'bounty',
  'exposure',
];

const envName = (feed: string) => `VIGIL_FEED_${feed.toUpperCase()}_URL`;

/**
 * The feeds `vigil intel update` fetches: VIGIL_INTEL_FEEDS (comma list) or the defaults, each from
 * VIGIL_FEED_<NAME>_URL or its official address. A feed with no address, or VulnCheck KEV without
 * VIGIL_VULNCHECK_TOKEN, is left out with the reason.
 */
export function feedSources(
  env: NodeJS.ProcessEnv,
  only?: string[],
): { sources: FeedSource[]; skipped: { feed: string; reason: string }[] } {
  const wanted = only?.length
    ? only
    : env.VIGIL_INTEL_FEEDS
      ? env.VIGIL_INTEL_FEEDS.split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : DEFAULT_FEEDS;
  const sources: FeedSource[] = [];
  const skipped: { feed: string; reason: string }[] = [];
  for (const feed of wanted as FeedFormat[]) {
    const url = env[envName(feed)] || OFFICIAL_FEED_URLS[feed];
    if (!url) {
      if (only?.length || env.VIGIL_INTEL_FEEDS) skipped.push({ feed, reason: `no address: set ${envName(feed)}` });
      continue;
    }
    if (feed === 'vulncheck_kev') {
      const token = env.VIGIL_VULNCHECK_TOKEN;
      if (!token) {
        skipped.push({ feed, reason: 'needs an API token: set VIGIL_VULNCHECK_TOKEN' });
        continue;
      }
      sources.push({ feed, url, token });
    } else sources.push({ feed, url });
  }
  return { sources, skipped };
}

/** GitHub's "latest release" answer for the public templates (tag_name, zipball_url). */
export function templatesReleaseUrl(env: NodeJS.ProcessEnv): string {
  return (
    env.VIGIL_TEMPLATES_RELEASE_URL || 'https://api.github.com/repos/projectdiscovery/nuclei-templates/releases/latest'
  );
}
