// Which protocols this engine runs. A protocol not listed here is parsed and validated but skipped.
import type { Protocol, ProtocolName } from './types.ts';
import { httpProtocol } from './http/index.ts';

const registry = new Map<ProtocolName, Protocol<unknown>>();

export function registerProtocol<B>(p: Protocol<B>): void {
  registry.set(p.name, p as Protocol<unknown>);
}

export function protocolFor(name: string): Protocol<unknown> | undefined {
  return registry.get(name as ProtocolName);
}

export function builtProtocols(): ProtocolName[] {
  return [...registry.keys()];
}

registerProtocol(httpProtocol);
