// NTPS, Vigil's 0-100 priority for a vulnerability (documented in docs/intel.md):
//   CVSS base score x 3 (up to 30) + EPSS probability x 25 (up to 25) + 20 when in any KEV list
//   + 10 when a public proof of concept exists + 15 for a verified template, 10 for an unverified one.
export interface NtpsInput {
  cvss_score?: number;
  epss_score?: number;
  is_kev: boolean;
  is_poc: boolean;
  template_coverage?: string;
}

export function ntps(v: NtpsInput): number {
  const cvss = Math.min(10, Math.max(0, v.cvss_score ?? 0)) * 3;
  const epss = Math.min(1, Math.max(0, v.epss_score ?? 0)) * 25;
  const kev = v.is_kev ? 20 : 0;
  const poc = v.is_poc ? 10 : 0;
  const tpl = v.template_coverage === 'verified' ? 15 : v.template_coverage === 'unverified' ? 10 : 0;
  return Math.round(cvss + epss + kev + poc + tpl);
}
