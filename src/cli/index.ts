// The `vigil` command line. Each command lives in its own file and adds itself to the program here.
import { Command } from 'commander';
import { registerServe } from './serve.ts';
import { registerWorker } from './worker.ts';
import { registerScan } from './scan.ts';
import { registerTemplatesValidate } from './templates-validate.ts';
import { registerTemplatesImport, registerTemplatesUpdate } from './templates-import.ts';
import { registerIntel } from './intel.ts';
import { registerUsers } from './users.ts';
import { registerUpdates } from './updates.ts';
import { registerDiscover } from './discover.ts';
import { registerAgent } from './agent.ts';
import { VERSION } from './version.ts';

const program = new Command('vigil')
  .description('Vigil: self-hosted vulnerability scanning platform')
  .version(VERSION)
  .showHelpAfterError();

registerServe(program);
registerWorker(program);
registerScan(program);
const templates = program.command('templates').description('check and import nuclei-format templates');
registerTemplatesValidate(templates);
registerTemplatesImport(templates);
registerTemplatesUpdate(templates);
registerIntel(program);
registerUsers(program);
registerUpdates(program);
registerDiscover(program);
registerAgent(program);

await program.parseAsync(process.argv);
