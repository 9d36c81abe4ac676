// The single place the loader gets matcher and extractor validation from: the operators module owns
// those rules (per-type fields, Go regex and DSL compilation). local-operators.ts is the structural
// fallback that was used before it existed; kept for comparison in tests.
export { validateMatcher, validateExtractor } from '../operators/index.ts';
