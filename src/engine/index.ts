// The engine's public surface: load templates elsewhere (template/), run them here.
export { runScan, executeTemplate, unsupportedReason, closeClients } from './runner.ts';
export type { ScanOptions, ScanStats, ExecuteTemplateOptions, AttemptInfo, ProgressInfo, SecretApplier } from './runner.ts';
export type { ResultEvent } from './output/types.ts';
export { formatPlain, formatJson } from './output/format.ts';
export type { Template, TemplateIssue, HttpRequest, Severity } from './template/types.ts';
