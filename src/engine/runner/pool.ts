// Runs an async function over items with a fixed number of workers.
export async function forEachLimit<T>(
  items: Iterable<T>,
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  const it = items[Symbol.iterator]();
  const n = Array.isArray(items) ? Math.min(limit, items.length) : limit;
  const workers = Array.from({ length: Math.max(1, n) }, async () => {
    for (;;) {
      const next = it.next();
      if (next.done) return;
      await fn(next.value);
    }
  });
  await Promise.all(workers);
}
