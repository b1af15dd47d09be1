import type { AsyncLocalStorage } from "node:async_hooks";

/**
 * Iterates `source` with `scope` holding `value` at each step: an async generator's body runs
 * at each next(), outside the scope it was made in unless each call re-enters it.
 */
export async function* iterateInScope<S, T>(
  scope: AsyncLocalStorage<S>,
  value: S,
  source: () => AsyncIterable<T>,
): AsyncGenerator<T> {
  const iterator = scope.run(value, () => source()[Symbol.asyncIterator]());
  try {
    for (;;) {
      const step = await scope.run(value, () => iterator.next());
      if (step.done) return;
      yield step.value;
    }
  } finally {
    await iterator.return?.();
  }
}
