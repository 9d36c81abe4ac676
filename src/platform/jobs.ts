// Every area's job handlers, loaded by `vigil serve` and `vigil worker` before the worker starts. A top file
// (like areas.ts): it imports every area that runs jobs, so it sits above them all, never inside one.
// An area that runs background jobs adds one import line here for the module that calls
// registerJobHandler (see worker/registry.ts for the API).
import './worker/builtin.ts';
import './scans/jobs.ts';
import './updates/jobs.ts';
import './assets/jobs.ts';
// Not a job handler: the agent directory scans/dispatch.ts routes runs with. Schedules and retests start
// runs in `vigil worker` processes too (the monitor loop), which load no routes.
import './agents/service.ts';
