// What an agent's declared networks cover (routing by agent_networks).
import { describe, expect, it } from 'vitest';
import { agentCoversScan, covers, networkProblem } from '../../../src/platform/agents/networks.ts';

describe('agent networks', () => {
  it('covers ranges inside its ranges, addresses in them, and names by name or *.domain', () => {
    const mine = ['10.0.0.0/8', 'fd00::/8', 'intranet.example', '*.corp.example'];
    expect(covers(mine, '10.20.0.0/16')).toBe(true);
    expect(covers(mine, '10.1.2.3')).toBe(true);
    expect(covers(mine, '::ffff:10.1.2.3')).toBe(true);
    expect(covers(mine, '0.0.0.0/0')).toBe(false);
    expect(covers(mine, '11.0.0.0/16')).toBe(false);
    expect(covers(mine, 'fd12::/16')).toBe(true);
    expect(covers(mine, 'intranet.example')).toBe(true);
    expect(covers(mine, 'a.b.corp.example')).toBe(true);
    expect(covers(mine, 'corp.example.evil')).toBe(false);
    expect(covers(mine, 'evilcorp.example')).toBe(false);
  });

  it('selects an agent when it covers every listed network and every target given as an address', () => {
    const mine = ['10.0.0.0/8'];
    expect(agentCoversScan(mine, ['10.1.0.0/16'], ['http://10.1.2.3:8080/x', 'app.internal'])).toBe(true);
    expect(agentCoversScan(mine, ['10.1.0.0/16'], ['http://192.0.2.1/'])).toBe(false);
    expect(agentCoversScan(mine, ['172.16.0.0/12'], ['10.1.2.3'])).toBe(false);
  });

  it('names what it does not understand', () => {
    expect(networkProblem('10.0.0.0/33')).toMatch(/not a CIDR/);
    expect(networkProblem('a b')).toMatch(/not a CIDR range, an address/);
    expect(networkProblem('10.0.0.0/8')).toBeUndefined();
    expect(networkProblem('*.corp.example')).toBeUndefined();
  });
});
