/**
 * Work over a request that yields between the items it looks at (parts, schema nodes, list
 * items), so that the engine and the gateway can go through a request of megabytes in slices
 * with other work in between (they drive it with lib/runtime/time-slices'
 * runInSlices); runSteps runs it to its end at once, as browser code and small requests do.
 */
export type Steps<Result = void> = Generator<void, Result, void>;

/** Runs steps to their end, here and now. */
export function runSteps<Result>(steps: Steps<Result>): Result {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}
