// The single place the loader gets matcher and extractor validation from: the operators module owns
// those rules (fields per type, Go regex and DSL compilation). From validate.ts itself, not the operators'
// index: loading templates needs the rules, not the matchers and extractors that run them.
export { validateMatcher, validateExtractor } from '../operators/validate.ts';
