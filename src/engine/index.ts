// The engine's public surface: the only file code outside src/engine/ imports (cli, platform, discovery).
// Everything else in the engine is its own business and may change; what is exported here is kept
// deliberately small and grouped by what a caller does with it. Tests and benches may reach inside.

// Templates: parse one, load files and folders (with filters), and their types.
export { parseTemplate, loadTemplateFile, loadTemplates } from './template/index.ts';
/** A template loaded lazily ({ lazy: true }) compiled now: its errors and warnings (nothing for one parsed in full). */
export { compileTemplate } from './template/index.ts';
export type { ParseOptions, ParseResult, LoadOptions, LoadResult, TemplateFilter } from './template/index.ts';
export type { Template, TemplateIssue, HttpRequest, Severity } from './template/types.ts';

// Template signatures (nuclei's `# digest:` line): the trusted signers (ProjectDiscovery's certificate and
// an operator's), checking one template's text, and the policy a scan applies to code/javascript templates.
export {
  TemplateSigners,
  signersFor,
  readSigningCertificate,
  hasDigest,
  PD_SIGNER,
  type SignatureStatus,
} from './template/signature.ts';
export { signatureRefusal, needsSignature, type SignaturePolicy } from './runner/signature-gate.ts';

// Running: a scan (targets x templates, results through callbacks), one template on one target, why a
// template cannot run here, and closing the pooled connections when a process is done.
export { runScan, executeTemplate, unsupportedReason, closeClients } from './runner.ts';
/** Why headless templates cannot run in this process (no Chromium at VIGIL_CHROMIUM or /usr/bin/chromium), or undefined. */
export { browserMissing } from './protocols/headless/browser.ts';
/** Whether a template fills {{interactsh-url}} (its scan registers with an interactsh server). */
export { usesInteractsh } from './runner.ts';
/** The interactsh client API's operations, for a caller relaying them another way (InteractshOptions.transport). */
export type { OastTransport, OastOperation } from './oast/client.ts';
/** A broad scan over several worker threads (targets dealt out, templates compiled once); why not, when not. */
export { runScanOnThreads, singleThreadReason } from './runner/threads.ts';
export type {
  ScanOptions,
  InteractshOptions,
  ScanStats,
  ExecuteTemplateOptions,
  AttemptInfo,
  ProgressInfo,
  SecretApplier,
} from './runner.ts';
/** A one-off run's trace (ExecuteTemplateOptions.trace): each HTTP request, its response, matcher and extractor outcomes. */
export type {
  TraceSink,
  TraceStep,
  TraceRequest,
  TraceResponse,
  TraceMatcher,
  TraceExtractor,
} from './runner/trace.ts';
/** The http requests one target gets from a template (`vigil scan` tunes V8 for scans of few, heavy templates). */
export { requestsPerTarget } from './runner/summary.ts';
// Which templates run, per protocol, and why the others do not.
export { protocolSummary, formatProtocolSummary, templateProtocol } from './runner/summary.ts';
/** A token bucket of requests per second (the scan's global rate limit; discovery paces itself with it too). */
export { TokenBucket } from './runner/rate-limit.ts';
/** The DSL's print_debug output: where it goes (undefined: nowhere, as in the platform's threads). */
export { setDebugOutput } from './dsl/index.ts';

// Workflows: where a workflow finds its sub-templates (already loaded ones, or files on disk), and the
// templates and tags a workflow names.
export { memoryWorkflowSource, workflowRefs } from './workflow/memory.ts';
export { fileWorkflowSource } from './workflow/files.ts';

// Results: the event of one result, as nuclei's JSON lines, and printing it.
export type { ResultEvent } from './output/types.ts';
export { formatPlain, formatJson } from './output/format.ts';

// Secret files (nuclei's -secret-file): load and validate them and run their dynamic logins (all at once
// for a scan: loadScanSecrets); the store applies them to a scan's requests (ScanOptions.secrets).
// Errors say which file or login failed.
export {
  loadScanSecrets,
  loadSecretFiles,
  SecretStore,
  SecretFileError,
  SecretLoginError,
  runnerLogin,
  redact,
  orderForRedaction,
} from './secrets/index.ts';
export type { ScanSecretOptions } from './secrets/index.ts';

// Addresses, scopes and where connections may go: one address module (any spelling of an address, CIDR
// ranges and sets of them), the egress policy (deny list) and the connect guard every protocol dials through.
export * from './net/index.ts';
