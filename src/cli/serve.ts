import type { Command } from 'commander';

// Not built yet: the command is registered so `vigil --help` lists it; it says so when run.
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('(not built yet)')
    .allowUnknownOption()
    .action(() => {
      console.error('vigil: this command is not built yet');
      process.exitCode = 2;
    });
}
