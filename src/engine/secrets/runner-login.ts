// Runs a dynamic secret's login template through the engine's own runner. The login request itself
// gets no secret (it is what produces one). This is the one login path: `vigil scan`, `vigil worker`
// and the platform all use it.
import path from 'node:path';
import { executeTemplate } from '../runner.ts';
import { loadTemplateFile } from '../template/index.ts';
import { LoginConfigError } from './dynamic.ts';
import { loginTargetNeed } from './login-target.ts';
import type { LoginRunner } from './types.ts';

export interface RunnerLoginOptions {
  /** Request timeout in seconds (the runner's unit). */
  timeout?: number;
  retries?: number;
  socks5Proxy?: string;
  signal?: AbortSignal;
}

export function runnerLogin(opts: RunnerLoginOptions = {}): LoginRunner {
  return async ({ template, input, variables }) => {
    const loaded = await loadTemplateFile(template);
    if (!loaded.template) {
      const why = loaded.issues.map((i) => `${i.field ? i.field + ': ' : ''}${i.reason}`).join('; ');
      throw new Error(`invalid login template (${why || 'not a template'})`);
    }
    if (!input) {
      const need = loginTargetNeed(loaded.template, variables);
      if (need) {
        throw new LoginConfigError(
          `input is required because the login template ${path.basename(template)} is not self-contained (${need}); ` +
            'add `input: <login target URL>` to this entry, or write absolute URLs in the template',
        );
      }
    }
    const { dynamic } = await executeTemplate(loaded.template, input, {
      vars: variables,
      timeout: opts.timeout,
      retries: opts.retries,
      socks5Proxy: opts.socks5Proxy,
      signal: opts.signal,
    });
    return dynamic;
  };
}
