// The monitor loop's steps beyond schedules: scan and asset events become deliveries, due deliveries are
// sent, due remediation retests start. Imported by serve and worker processes (and tests) so the loop
// runs them.
//
// The monitor area holds three things, each with its service and store:
// - schedules: schedules.ts (service), schedule-store.ts, schedule-math.ts (pure);
// - alerts and tickets: events.ts (scan and asset events become deliveries), deliveries.ts (sending with
//   retries, listing), delivery-store.ts, alert-senders.ts and http-send.ts (Slack, Teams, email,
//   webhooks), trackers.ts (tickets in GitHub, GitLab, Jira, Linear, Gitea);
// - finding state: finding-state.ts (vuln_score rules, fixed and regressed findings), finding-store.ts,
//   remediation.ts (retests under a remediation config).
// Named configurations are the configs area's (src/platform/configs/).
import { addMonitorStep } from './loop.ts';
import { processEvents } from './events.ts';
import { processDeliveries } from './deliveries.ts';
import { runDueRetests } from './remediation.ts';

addMonitorStep('events', (ctx) => processEvents(ctx));
addMonitorStep('deliveries', (ctx) => processDeliveries(ctx));
addMonitorStep('remediation', (ctx) => runDueRetests(ctx));
