// POST /v1/scans/config/verify (the hosted platform's Verify Config), also the console's "Send a test": the
// config text is checked as a save would check it (a problem: is_verified false, the problem in words and
// the key it names in `param`); then an alerting config sends one test alert through its provider and a
// reporting config reads its tracker's project (no ticket is opened). Other types are only checked.
// Nothing is stored. The outgoing request follows the integrations' rules (http-send.ts): the deny list decides
// on the address connected to, and a destination not reached gives the one text that says nothing about
// the network.
import { ApiError, badRequest } from '../shared/errors.ts';
import type { AppContext } from '../shared/context.ts';
import type { Caller } from '../auth/service.ts';
import { CONFIG_TYPES, TRACKERS, validateConfig, type ConfigType } from '../configs/documents.ts';
import { sendAlert, type AlertPayload } from './alert-senders.ts';
import { checkTracker } from './trackers.ts';
import { SendError, UNREACHABLE } from './http-send.ts';

export interface VerifyBody {
  config: string;
  config_type?: string;
}

export interface VerifyAnswer {
  is_verified: boolean;
  response: string;
  /** The key a refused text names (config.webhook.url), as a save's 400 names it. */
  param?: string;
  event?: Record<string, unknown>;
}

/**
 * The type a body names, or else the one its text shows (a `provider` key: alerting; a tracker key:
 * reporting), else scan (the hosted platform's default).
 */
function typeOf(body: VerifyBody): ConfigType {
  if (body.config_type !== undefined) {
    const t = body.config_type.trim().toLowerCase();
    if (!(CONFIG_TYPES as readonly string[]).includes(t))
      throw badRequest(`config_type must be one of ${CONFIG_TYPES.join(', ')}`, 'config_type');
    return t as ConfigType;
  }
  if (/^provider\s*:/m.test(body.config)) return 'alerting';
  if (TRACKERS.some((t) => new RegExp(`^${t}\\s*:`, 'm').test(body.config))) return 'reporting';
  return 'scan';
}

/** What a test alert carries: every field a real alert has, so body placeholders render. */
export function testAlert(caller: Caller, now = new Date()): AlertPayload {
  return {
    event: 'test',
    scan_id: '',
    scan_name: 'test alert',
    status: 'test',
    run: 0,
    rescan_count: 0,
    failure_reason: '',
    total_result: 0,
    severity: {},
    timestamp: now.toISOString(),
    message: `Vigil: a test alert sent by ${caller.email}; this integration works`,
  };
}

export async function verifyConfig(ctx: AppContext, caller: Caller, body: VerifyBody): Promise<VerifyAnswer> {
  const type = typeOf(body);
  let doc: Record<string, any>;
  try {
    doc = validateConfig(type, body.config) as Record<string, any>;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { is_verified: false, response: err.message, ...(err.param ? { param: err.param } : {}) };
  }
  try {
    if (type === 'alerting') {
      const event = testAlert(caller);
      const status = await sendAlert(ctx, doc, event);
      return {
        is_verified: true,
        response: status === null ? 'test mail accepted by the SMTP server' : `test alert delivered (HTTP ${status})`,
        event,
      };
    }
    if (type === 'reporting') {
      const name = await checkTracker(ctx, doc);
      return { is_verified: true, response: `${name} project reached with these credentials (no ticket opened)` };
    }
  } catch (err) {
    // SendError texts are the safe reasons the deliveries list shows (never a URL, header or excerpt).
    return { is_verified: false, response: err instanceof SendError ? err.message : UNREACHABLE };
  }
  return { is_verified: true, response: `valid ${type} config` };
}
