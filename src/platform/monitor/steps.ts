// The monitor loop's steps beyond schedules: scan events become deliveries, due deliveries are sent.
// Imported by serve and worker processes (and tests) so the loop runs them.
import { addMonitorStep } from './loop.ts';
import { processEvents } from './events.ts';
import { processDeliveries } from './deliveries.ts';
import { runDueRetests } from './remediation.ts';

addMonitorStep('events', (ctx) => processEvents(ctx));
addMonitorStep('deliveries', (ctx) => processDeliveries(ctx));
addMonitorStep('remediation', (ctx) => runDueRetests(ctx));
