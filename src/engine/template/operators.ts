// The single place the loader gets matcher and extractor validation from: the operators module owns
// those rules (fields per type, Go regex and DSL compilation).
export { validateMatcher, validateExtractor } from '../operators/index.ts';
