import { describe, expect, it } from 'vitest';
import { runJq, parseJq } from '../../../src/engine/operators/jq/index.ts';

const doc = {
  events: [
    { eventAction: 'registration', eventDate: '2020-01-01' },
    { eventAction: 'expiration', eventDate: '2030-01-01' },
  ],
  entities: [
    {
      roles: ['registrant'],
      vcardArray: [
        'vcard',
        [
          ['version', {}, 'text', '4.0'],
          ['fn', {}, 'text', 'John'],
          ['adr', {}, 'text', ['', 'x', 'Main St']],
        ],
      ],
    },
  ],
  server: { name: 'srv', version: '1.2' },
  'm.server': 'm.example',
  'setup-token': 'st',
  Capabilities: { a: true, b: false, c: true },
  Rows: [{ usename: 'u', passwd: 'p' }],
  items: [{ metadata: { name: 'p1', namespace: 'ns' }, spec: { containers: [1, 2] } }],
  NoticeConfigList: [
    { Route: 0, Project: 'x' },
    { Route: 1, Project: 'y' },
  ],
  secureDNS: {},
  deep: { a: { nodeId: 'N1' } },
  allow: true,
  list: [3, 1, 2],
};

describe('jq subset used by the corpus', () => {
  it.each([
    ['.server.name', ['srv']],
    ['.list[]', [3, 1, 2]],
    ['.list[-1]', [2]],
    ['.list[1:]', [[1, 2]]],
    ['.["setup-token"]', ['st']],
    ['."m.server" | select( . != null )', ['m.example']],
    ['.server | select((.name != null) and (.version != null)) | .name, .version', ['srv', '1.2']],
    ['.events[] | select(.eventAction == "registration").eventDate', ['2020-01-01']],
    [
      '.entities[] | select(.roles[] | contains("registrant")) | .vcardArray[1].[] | select(.[0] == "fn") | .[-1]',
      ['John'],
    ],
    [
      '.entities[] | select(.roles[] | contains("registrant")) | .vcardArray[1].[] | select(.[0] == "adr") | .[-1][] | select(. != "")',
      ['x', 'Main St'],
    ],
    ['.Capabilities | with_entries(select(.value == true)) | keys', [['a', 'c']]],
    ['.Rows[] | "\\(.usename) : \\(.passwd)"', ['u : p']],
    ['.items[] | {pod: .metadata.name, containers: .spec.containers}', [{ pod: 'p1', containers: [1, 2] }]],
    ['.items[] | {name: .metadata.name, namespace: .metadata.namespace}', [{ name: 'p1', namespace: 'ns' }]],
    ['.server | {name}', [{ name: 'srv' }]],
    ['.NoticeConfigList | map(select(.Route == 0) | .Project)', [['x']]],
    ['.secureDNS.delegationSigned // false', [false]],
    ['..|objects|.nodeId//empty[0]', ['N1']],
    ['if .allow==true and .allow then true else false end', [true]],
    ['"Version: "+ .server.version', ['Version: 1.2']],
    ['.server.version?', ['1.2']],
    ['.list | length', [3]],
    ['.list | sort | first', [1]],
    ['.server | keys', [['name', 'version']]],
    ['.server | to_entries | .[].key', ['name', 'version']],
    ['.list | map(. * 2) | add', [12]],
    ['[.list[] | select(. > 1)]', [[3, 2]]],
    ['.server.name | ascii_upcase | test("SR")', [true]],
    ['.list as $l | $l[0]', [3]],
    ['.missing', [null]],
    ['.', [doc]],
  ])('%s', (q, want) => {
    expect(runJq(q as string, doc)).toEqual(want);
  });
  it('errors on type mismatches and rejects bad syntax', () => {
    expect(() => runJq('.list.name', doc)).toThrow(/Cannot index array/);
    expect(() => runJq('.server[]?.x', doc)).toThrow();
    expect(runJq('.list.name?', doc)).toEqual([]);
    expect(() => parseJq('.a | | .b')).toThrow();
    expect(() => parseJq('.a[')).toThrow();
  });
});
