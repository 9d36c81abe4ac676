// Every failure of the DSL (syntax, unknown function, missing variable, bad argument) is a DslError,
// so callers can tell expression problems apart from bugs.
export class DslError extends Error {
  /** Set when the error is a reference to a variable that is not in the input map. */
  readonly missingVariable?: string;
  constructor(message: string, missingVariable?: string) {
    super(message);
    this.name = 'DslError';
    this.missingVariable = missingVariable;
  }
}
