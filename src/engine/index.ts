// The engine's public surface: load templates (template/), run them (runner), format results (output/).
export { runScan, executeTemplate, unsupportedReason, closeClients } from './runner.ts';
export { protocolSummary, formatProtocolSummary, templateProtocol } from './runner/summary.ts';
export type { ScanOptions, ScanStats, ExecuteTemplateOptions, AttemptInfo, ProgressInfo, SecretApplier } from './runner.ts';
export type { ResultEvent } from './output/types.ts';
export { formatPlain, formatJson } from './output/format.ts';
export { parseTemplate, loadTemplateFile, loadTemplates } from './template/index.ts';
export type { Template, TemplateIssue, HttpRequest, Severity } from './template/types.ts';
export { setDebugOutput } from './dsl/index.ts';
export * from './net/index.ts';
