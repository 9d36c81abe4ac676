// Every area's job handlers, loaded by `vigil serve` and `vigil worker` before the worker starts.
// An area that runs background jobs adds one import line here for the module that calls
// registerJobHandler (see registry.ts for the API).
import './builtin.ts';
import '../scans/jobs.ts';
import '../updates/jobs.ts';
import '../assets/jobs.ts';
