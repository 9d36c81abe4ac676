// Waiting in tests: for a condition, never for a fixed time. A test that must show that something did
// NOT happen asserts on state after an event that has to come later (a job's end, a later request, a
// server's request log), not "sleep, then check that nothing changed".

/** Polls until fn returns a truthy value and returns it (at once when it already holds), or throws after timeoutMs. */
export async function waitFor<T>(
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 15_000,
  stepMs = 100,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs)); // the poll's step, not a wait for an outcome
  }
}
