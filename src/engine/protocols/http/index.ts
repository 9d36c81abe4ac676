// The http protocol: schema and compile (schema.ts, called by the template parser), execution
// (execute.ts over the client in client.ts / keepalive.ts) and request clustering (cluster.ts).
import type { HttpRequest } from '../../template/types.ts';
import type { Protocol } from '../types.ts';
import { executeHttpBlock } from './execute.ts';
import { httpClustering } from './cluster.ts';

export const httpProtocol: Protocol<HttpRequest> = {
  name: 'http',
  // Compiled by the template parser: the template holds its http blocks ready to run.
  blocks: (t) => t.http,
  execute: executeHttpBlock,
  cluster: httpClustering,
};
