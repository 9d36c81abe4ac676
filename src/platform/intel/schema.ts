// The spec's Vulnerability record (closed: exactly these fields) and its nested records, as TypeBox schemas.
import { Type, type TSchema } from '@sinclair/typebox';

const O = <T extends TSchema>(t: T) => Type.Optional(t);
const S = () => O(Type.String());
const DT = () => O(Type.String({ format: 'date-time' }));
const B = () => O(Type.Boolean());
const I = () => O(Type.Integer());
const N = () => O(Type.Number());
const SA = () => O(Type.Array(Type.String()));

const KevInfo = Type.Object(
  { added_date: DT(), due_date: DT(), known_ransomware_campaign_use: B(), source: S() },
  { title: 'KevInfo' },
);
const POC = Type.Object({ added_at: DT(), source: S(), url: S() }, { title: 'POC' });
const Citation = Type.Object(
  { source: S(), tags: SA(), url: S(), added_at: DT() },
  { title: 'Citation', additionalProperties: false },
);
const Weakness = Type.Object({ cwe_id: S(), cwe_name: S() }, { title: 'Weakness', additionalProperties: false });
const ProductInfo = Type.Object(
  {
    cpe: SA(),
    product: S(),
    project_repos: O(Type.Object({}, { additionalProperties: true })),
    projects: SA(),
    vendor: S(),
    product_category: S(),
    product_type: S(),
    industry: S(),
    tech_domain: S(),
    category: S(),
    deployment_model: S(),
    summary: S(),
  },
  { title: 'ProductInfo' },
);
const SearchEngineStats = Type.Object(
  { max_hosts: I(), min_hosts: I(), queries: SA() },
  { title: 'SearchEngineStats' },
);
const ExposureStats = Type.Object(
  { id: S(), max_hosts: I(), min_hosts: I(), engine_a: O(SearchEngineStats), engine_b: O(SearchEngineStats) },
  { title: 'ExposureStats' },
);
const VulnExposure = Type.Object(
  { max_hosts: I(), min_hosts: I(), values: O(Type.Array(ExposureStats)) },
  { title: 'VulnExposure', additionalProperties: false },
);
const BountyStats = Type.Object(
  { rank: I(), reports: I(), delta_rank: I(), delta_reports: I() },
  { title: 'BountyStats', additionalProperties: false },
);
const AIMeta = Type.Object(
  { model_used: S(), is_prompt_by_human: B(), is_template_by_human: B(), prompt: S() },
  { title: 'AIMeta' },
);
const Classification = Type.Object(
  {
    'cve-id': SA(),
    'cwe-id': SA(),
    'cvss-metrics': S(),
    'cvss-score': N(),
    'epss-score': N(),
    'epss-percentile': N(),
    cpe: S(),
  },
  { title: 'Classification' },
);

export const VULN_FIELDS = {
  // CVE group
  age_in_days: I(),
  assignee: S(),
  cve_created_at: DT(),
  cve_updated_at: DT(),
  cve_id: S(),
  cvss_metrics: S(),
  cvss_score: N(),
  epss_score: N(),
  epss_percentile: N(),
  is_kev: B(),
  is_vkev: B(),
  is_oss: B(),
  is_patch_available: B(),
  is_poc: B(),
  is_remote: B(),
  is_template: B(),
  is_auth: B(),
  is_exploit_seen: B(),
  kev: O(Type.Array(KevInfo)),
  poc_count: I(),
  pocs: O(Type.Array(POC)),
  scanner_template: S(),
  poc_first_seen: DT(),
  vuln_status: S(),
  // description group
  citations: O(Type.Array(Citation)),
  cwe: SA(),
  description: S(),
  impact: S(),
  name: S(),
  product: S(),
  remediation: S(),
  severity: S(),
  vendor: S(),
  requirement_type: S(),
  requirements: S(),
  template_coverage: S(),
  vulnerability_impact: SA(),
  vulnerability_type: S(),
  weaknesses: O(Type.Array(Weakness)),
  // template group
  category: S(),
  integration_id: S(),
  integration_type: S(),
  pull_request: S(),
  ref: S(),
  release_tag: S(),
  template_type: S(),
  score: I(),
  is_draft: B(),
  is_early: B(),
  is_github: B(),
  is_new: B(),
  is_svcteam: B(),
  directory: S(),
  filename: S(),
  uri: S(),
  author: SA(),
  tags: SA(),
  digest: S(),
  raw: S(),
  type: S(),
  metadata: O(Type.Object({}, { additionalProperties: true })),
  organizations: SA(),
  origin_template_id: S(),
  share_type: S(),
  ttl: S(),
  ttl_from: S(),
  users: O(Type.Array(Type.Integer())),
  ai_meta: O(AIMeta),
  classification: O(Classification),
  id: S(),
  user_id: I(),
  // own fields
  affected_products: O(Type.Array(ProductInfo)),
  created_at: DT(),
  updated_at: DT(),
  template_created_at: DT(),
  doc_id: S(),
  doc_type: S(),
  exposure: O(VulnExposure),
  bounty: O(BountyStats),
  ntps: I(),
};

export const Vulnerability = Type.Object(VULN_FIELDS, {
  $id: 'Vulnerability',
  title: 'Vulnerability',
  additionalProperties: false,
});

export const FIELD_NAMES = new Set(Object.keys(VULN_FIELDS));

const Facet = Type.Object(
  {
    buckets: Type.Record(Type.String(), Type.Integer()),
    missing: Type.Integer(),
    other: Type.Integer(),
    total: Type.Integer(),
  },
  { title: 'Facets' },
);

export const SearchResponse = Type.Object({
  count: Type.Integer(),
  total: Type.Integer(),
  facets: O(Type.Record(Type.String(), Facet)),
  results: Type.Array(Type.Ref(Vulnerability)),
});
