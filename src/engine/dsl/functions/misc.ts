// Functions that exist in nuclei but that Vigil does not run: payload gadget generators and the LLM call.
import { DslError } from '../errors.ts';
import { invalid, define } from './registry.ts';

/** Names of the functions below, so callers can look for them cheaply before re-evaluating. */
export const UNSUPPORTED_FUNCTIONS = ['generate_java_gadget', 'generate_dotnet_gadget', 'llm_prompt'];

export function registerUnsupported(): void {
  define('generate_java_gadget', 3, () => {
    throw new DslError('unsupported: generate_java_gadget (Java deserialization gadget generation is not available)');
  });
  define('generate_dotnet_gadget', 4, () => {
    throw new DslError('unsupported: generate_dotnet_gadget (.NET deserialization gadget generation is not available)');
  });
  define('llm_prompt', undefined, (a) => {
    if (a.length < 1) throw invalid('llm_prompt');
    throw new DslError('unsupported: llm_prompt (no LLM provider is configured)');
  });
}
