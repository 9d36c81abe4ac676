// Public surface of the secret file module (used by the runner, `vigil scan` and `vigil worker`).
export { loadSecretFiles, SecretFileError, type LoadSecretOptions } from './load.ts';
export { SecretStore, type PrepareOptions } from './store.ts';
export { SecretLoginError, LoginConfigError } from './dynamic.ts';
export { loginTargetNeed } from './login-target.ts';
export { redact, redactDeep, redactEvent, orderForRedaction, REDACTED } from './redact.ts';
export { formatIssue } from './validate.ts';
export type {
  SecretApplier,
  SecretTargetRequest,
  SecretIssue,
  LoginRunner,
  SecretEntry,
  StaticSecret,
  DynamicSecret,
} from './types.ts';
export { runnerLogin, type RunnerLoginOptions } from './runner-login.ts';
export { loadScanSecrets, type ScanSecretOptions } from './for-scan.ts';
