import { InvalidArgumentError, type Command } from 'commander';

const positive = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('use a whole number of 1 or more');
  return n;
};
const list = (v: string, prev: string[] = []) => [
  ...prev,
  ...v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
];

// `vigil agent`: runs the team's scans addressed to this agent, talking to the server over its API only.
export function registerAgent(program: Command): void {
  program
    .command('agent')
    .description('run scans addressed to this agent (inside another network), connecting out to a Vigil server')
    .requiredOption(
      '--server <url>',
      'the Vigil server, e.g. https://vigil.example.com (env PDCP_API_SERVER)',
      process.env.PDCP_API_SERVER,
    )
    .option('--key <key>', 'an Owner or Admin API key, or an agent key (vga_...) (env VIGIL_API_KEY, PDCP_API_KEY)')
    .option('--team <team_id>', "the team the agent belongs to (env PDCP_TEAM_ID; default: the key owner's team)")
    .option('--name <name>', "the agent's name in its team (default: this host name)")
    .option('--tags <a,b>', 'tags scans select agents by (agent_tags); repeatable', list, [])
    .option(
      '--networks <cidr,...>',
      'networks this agent reaches (agent_networks): CIDR ranges, host names, *.domain',
      list,
      [],
    )
    .option('--concurrency <n>', 'chunks run at once', positive, 2)
    .option('--secret-file <path...>', 'secret file(s) applied to the chunks this agent runs; never sent to the server')
    .option('--ca <file>', "PEM certificate(s) of a private CA that signed the server's certificate")
    .action(
      async (opts: {
        server?: string;
        key?: string;
        team?: string;
        name?: string;
        tags: string[];
        networks: string[];
        concurrency: number;
        secretFile?: string[];
        ca?: string;
      }) => {
        const key = opts.key ?? process.env.VIGIL_API_KEY ?? process.env.PDCP_API_KEY;
        if (!opts.server) {
          console.error('vigil agent: give the server with --server URL (or PDCP_API_SERVER)');
          process.exit(2);
        }
        if (!key) {
          console.error('vigil agent: give a key with --key (or VIGIL_API_KEY / PDCP_API_KEY)');
          process.exit(2);
        }
        const { startAgent, defaultAgentName } = await import('./agent/run.ts');
        const { ApiAnswer } = await import('./agent/client.ts');
        let agent;
        try {
          agent = await startAgent({
            server: opts.server,
            key,
            team: opts.team ?? process.env.PDCP_TEAM_ID,
            name: opts.name ?? defaultAgentName(),
            tags: opts.tags,
            networks: opts.networks,
            concurrency: opts.concurrency,
            secretFiles: opts.secretFile ?? [],
            ca: opts.ca,
          });
        } catch (err) {
          const msg =
            err instanceof ApiAnswer ? `the server refused: ${err.body.message ?? err.status}` : (err as Error).message;
          console.error(`vigil agent: ${msg}`);
          process.exit(1);
        }
        let stopping = false;
        const stop = () => {
          if (stopping) process.exit(1);
          stopping = true;
          process.stderr.write('vigil agent: stopping (running chunks are given back)\n');
          void agent.stop().then(() => process.exit(0));
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
        await agent.done;
        process.exit(stopping ? 0 : 1);
      },
    );
}
