import { describe, expect, it } from 'vitest';
import { combinations, countCombinations } from '../../../../src/engine/protocols/http/payloads.ts';

describe('payload combinations', () => {
  const sets = { user: ['a', 'b', 'c'], pass: ['1', '2'] };

  it('clusterbomb yields the cartesian product, first set changing slowest', () => {
    const all = [...combinations(sets, 'clusterbomb')];
    expect(all).toEqual([
      { user: 'a', pass: '1' },
      { user: 'a', pass: '2' },
      { user: 'b', pass: '1' },
      { user: 'b', pass: '2' },
      { user: 'c', pass: '1' },
      { user: 'c', pass: '2' },
    ]);
    expect(countCombinations(sets, 'clusterbomb')).toBe(6);
  });

  it('pitchfork walks side by side and stops at the shortest list', () => {
    expect([...combinations(sets, 'pitchfork')]).toEqual([
      { user: 'a', pass: '1' },
      { user: 'b', pass: '2' },
    ]);
    expect(countCombinations(sets, 'pitchfork')).toBe(2);
  });

  it('batteringram uses each value of its one list', () => {
    expect([...combinations({ v: ['x', 'y', 'z'] }, 'batteringram')]).toEqual([{ v: 'x' }, { v: 'y' }, { v: 'z' }]);
  });

  it('no payloads means one empty combination; an empty list means none', () => {
    expect([...combinations(undefined, 'batteringram')]).toEqual([{}]);
    expect([...combinations({ a: ['1'], b: [] }, 'clusterbomb')]).toEqual([]);
    expect([...combinations({ a: ['1'], b: [] }, 'pitchfork')]).toEqual([]);
    expect([...combinations({}, 'clusterbomb')]).toEqual([{}]);
  });

  it('is an iterator that stays done, and each combination is a map of its own', () => {
    const it = combinations({ v: ['x'], w: ['1', '2'] }, 'clusterbomb');
    const a = it.next();
    const b = it.next();
    expect(a.value).toEqual({ v: 'x', w: '1' });
    expect(b.value).toEqual({ v: 'x', w: '2' });
    expect(a.value).not.toBe(b.value);
    expect(it.next().done).toBe(true);
    expect(it.next().done).toBe(true);
  });
});
