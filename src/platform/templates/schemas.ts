// TypeBox shapes of the template API: the Template record (spec "Template record") and the facets.
// Inlined (no $id) so each route's schema stands alone.
import { Type } from '@sinclair/typebox';

const Str = Type.Optional(Type.String());
const Bool = Type.Optional(Type.Boolean());
const Strs = Type.Optional(Type.Array(Type.String()));
const FreeObject = Type.Object({}, { additionalProperties: true });

export const Classification = Type.Object(
  {
    'cve-id': Strs,
    'cwe-id': Strs,
    'cvss-metrics': Str,
    'cvss-score': Type.Optional(Type.Number()),
    'epss-score': Type.Optional(Type.Number()),
    'epss-percentile': Type.Optional(Type.Number()),
    cpe: Str,
  },
  { additionalProperties: true },
);

export const AIMeta = Type.Object(
  { model_used: Str, is_prompt_by_human: Bool, is_template_by_human: Bool, prompt: Str },
  {},
);

export const TemplateRecord = Type.Object(
  {
    uri: Type.Optional(Type.String({ description: 'path in the public catalogue, or the private template id' })),
    id: Type.Optional(Type.String({ description: "the template's own id" })),
    name: Str,
    author: Strs,
    tags: Strs,
    severity: Str,
    type: Type.Optional(
      Type.String({ description: 'protocol: http, dns, tcp, ssl, file, headless, code, javascript, workflow' }),
    ),
    dir: Str,
    ref: Type.Optional(Type.String({ description: 'git commit of the catalogue checkout' })),
    vendor: Str,
    product: Str,
    classification: Type.Optional(Classification),
    metadata: Type.Optional(FreeObject),
    digest: Type.Optional(Type.String({ description: 'sha256 of raw' })),
    created_at: Type.Optional(Type.String({ format: 'date-time' })),
    updated_at: Type.Optional(Type.String({ format: 'date-time' })),
    release_tag: Str,
    is_early: Bool,
    raw: Type.Optional(Type.String({ description: 'template source text' })),
    template_id: Str,
    description: Str,
    filename: Str,
    impact: Str,
    ai_meta: Type.Optional(AIMeta),
    references: Strs,
    template_type: Type.Optional(Type.String({ description: 'public, user or shared' })),
    is_draft: Bool,
    is_github: Bool,
    is_new: Bool,
    is_svcteam: Bool,
    remediation: Str,
    is_signed: Type.Optional(
      Type.Boolean({
        description:
          "whether a trusted key signed the template (its `# digest:` line): ProjectDiscovery's or a certificate in VIGIL_TEMPLATE_CERTIFICATES",
      }),
    ),
    signed_by: Type.Optional(
      Type.String({
        description: "the signer: the trusted certificate's common name, e.g. projectdiscovery/nuclei-templates",
      }),
    ),
  },
  { title: 'Template' },
);

export const FacetStats = Type.Object(
  {
    buckets: Type.Record(Type.String(), Type.Integer()),
    missing: Type.Integer(),
    other: Type.Integer(),
    total: Type.Integer(),
  },
  {},
);

const facet = FacetStats;
export const Facets = Type.Object(
  {
    is_new: facet,
    creation_stats: facet,
    author: facet,
    is_early: facet,
    dir: facet,
    product: facet,
    severity: facet,
    tags: facet,
    type: facet,
    vendor: facet,
  },
  {},
);

/** The answer of GET /v2/template/search (results first: search.ts splices the records in after it). */
export const TemplateSearchAnswer = Type.Object({
  results: Type.Array(TemplateRecord),
  total: Type.Integer(),
  count: Type.Integer(),
  facets: Facets,
  message: Type.String(),
});
