/**
 * Who goes first on the one event loop the engine shares: interactive requests (generate,
 * stream, count, cache creation) are tracked here, and batch work waits for a moment when
 * none is in flight before each request and between each slice of its generation. So a
 * batch only ever uses time interactive callers leave idle; under constant interactive load
 * it waits (the service's own batch turnaround is up to 24 hours).
 */
export class InteractiveWork {
  private active = 0;
  private waiters: (() => void)[] = [];
  private lastSeen = Number.NEGATIVE_INFINITY;

  constructor(private readonly clock: () => number = () => performance.now()) {}

  /** Interactive operations in flight now. */
  get inFlight(): number {
    return this.active;
  }

  /** True when interactive work is in flight or ended less than `withinMs` ago. */
  recentlyBusy(withinMs: number): boolean {
    return this.active > 0 || this.clock() - this.lastSeen < withinMs;
  }

  private begin(): () => void {
    this.active += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.active -= 1;
      this.lastSeen = this.clock();
      if (this.active === 0) {
        const waiting = this.waiters;
        this.waiters = [];
        for (const resolve of waiting) resolve();
      }
    };
  }

  /** Runs one interactive operation. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const end = this.begin();
    try {
      return await work();
    } finally {
      end();
    }
  }

  /** Passes an interactive stream through, counted from its first pull to its end (or abandonment). */
  async *stream<T>(open: () => AsyncIterable<T>): AsyncGenerator<T> {
    const end = this.begin();
    try {
      yield* open();
    } finally {
      end();
    }
  }

  /**
   * Resolves once no interactive operation is in flight, or at once when `signal` aborts
   * (the caller checks it). It first lets the event loop run once, so requests whose bytes
   * already arrived get to start before batch work resumes.
   */
  async idle(signal?: AbortSignal): Promise<void> {
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.active === 0 || signal?.aborted) return;
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        signal?.addEventListener("abort", () => resolve(), { once: true });
      });
    }
  }
}
