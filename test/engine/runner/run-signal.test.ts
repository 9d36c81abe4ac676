import { describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { fastAbortController } from '../../../src/engine/runner/run-signal.ts';

describe('scan run abort signal', () => {
  it('calls each abort listener once, skips removed ones and stays a real AbortSignal', async () => {
    const c = fastAbortController();
    expect(c.signal).toBeInstanceOf(AbortSignal);
    const calls: string[] = [];
    const a = () => calls.push('a');
    const b = () => calls.push('b');
    const obj = { handleEvent: (e: Event) => calls.push(`obj:${e.type}`) };
    c.signal.addEventListener('abort', a, { once: true });
    c.signal.addEventListener('abort', a); // a duplicate is kept once, as with EventTarget
    c.signal.addEventListener('abort', b);
    c.signal.addEventListener('abort', obj);
    c.signal.removeEventListener('abort', b);
    const viaNode = once(c.signal, 'abort'); // Node's own helper still sees the event
    c.abort(new Error('stop'));
    c.abort(new Error('again')); // a second abort changes nothing
    await viaNode;
    expect(calls).toEqual(['a', 'obj:abort']);
    expect(c.signal.aborted).toBe(true);
    expect((c.signal.reason as Error).message).toBe('stop');
    // A listener added after the abort is not called (the event has fired), like EventTarget.
    c.signal.addEventListener('abort', b);
    expect(calls).toEqual(['a', 'obj:abort']);
  });

  it('adds and removes many listeners in constant time each', () => {
    const c = fastAbortController();
    const fns = Array.from({ length: 20_000 }, () => () => {});
    const t = performance.now();
    for (const f of fns) c.signal.addEventListener('abort', f, { once: true });
    for (const f of fns) c.signal.removeEventListener('abort', f);
    const fast = performance.now() - t;
    const plain = new AbortController().signal;
    const t2 = performance.now();
    for (const f of fns) plain.addEventListener('abort', f, { once: true });
    for (const f of fns) plain.removeEventListener('abort', f);
    const slow = performance.now() - t2;
    expect(fast).toBeLessThan(slow);
  });
});
