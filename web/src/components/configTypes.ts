// The types of named configurations (docs/configs.md) and a short starting text for each in the editor.
export const CONFIG_TYPES = [
  'scan',
  'template',
  'alerting',
  'reporting',
  'cloudlist',
  'subfinder',
  'remediation',
  'vuln_score',
];

export const STARTERS: Record<string, string> = {
  scan: '# engine settings for the scans that name this config\nrate-limit: 50\nconcurrency: 10\ntimeout: 8\nretries: 1\n',
  template: '# templates a scan gets from this config\ntags: [cve]\nseverities: [high, critical]\n',
  alerting:
    '# where scan events are sent\nprovider: webhook\nevents: [scan_finished, scan_failed]\nwebhook:\n  url: https://hooks.example.com/vigil\n',
  reporting:
    '# one tracker: findings become tickets\ngithub:\n  owner: my-org\n  project-name: my-repo\n  token: ghp_your_token\n',
  cloudlist:
    '# cloud providers to list assets from\n- provider: aws\n  aws_access_key: AKIA_YOUR_KEY\n  aws_secret_key: your_secret\n',
  subfinder: '# keys of subdomain sources\nshodan: [your_key]\n',
  remediation: '# finished scans with open findings run again after\nretest-interval: 24h\n',
  vuln_score: '# set the severity of matching findings\nrules:\n  - tag: cve\n    severity: critical\n',
};

/**
 * The line of the key a 400's `param` names (config.webhook.url -> the `url:` line under `webhook:`), or
 * the line a YAML syntax message gives. A hint for the person fixing it; undefined when not found.
 */
export function lineOfProblem(text: string, param: string | undefined, message: string): number | undefined {
  const syntax = /line (\d+)/.exec(message);
  if (syntax) return Number(syntax[1]);
  if (!param?.startsWith('config')) return undefined;
  const keys = param
    .replace(/^config/, '')
    .split(/[.[\]]/)
    .filter((k) => k && !/^\d+$/.test(k));
  const lines = text.split('\n');
  let from = 0;
  let found: number | undefined;
  for (const key of keys) {
    const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const re = new RegExp(`^\\s*(-\\s+)?['"]?${escaped}['"]?\\s*:|[{,]\\s*${escaped}\\s*:`);
    const at = lines.findIndex((l, i) => i >= from && re.test(l));
    if (at < 0) break;
    found = at + 1;
    from = at;
  }
  return found;
}
