/**
 * The engine's housekeeping: at start-up, uploads and files a stop left half-done are
 * recovered and expired batches swept; then, every interval, expired files, upload sessions,
 * caches and batches are removed. Instances sharing one database take turns, so each sweep
 * runs once per interval, not once per instance.
 */

interface Sweeper {
  sweep(): Promise<unknown>;
}

export interface HousekeepingOptions {
  files: Sweeper & { recover(): Promise<void> };
  caches: Sweeper;
  batches: Sweeper;
  /** How often expired resources are swept; 0 turns the timer off (tests sweep by hand). */
  intervalMs: number;
  /** True when this instance is the one to sweep now; absent: always. */
  turn?: () => Promise<boolean>;
  onError?: (message: string, error: unknown) => void;
}

export interface Housekeeping {
  /** Settles when the start-up recovery is done (failures are reported, not thrown). */
  ready: Promise<void>;
  stop(): void;
}

export function startHousekeeping(options: HousekeepingOptions): Housekeeping {
  const { files, caches, batches } = options;
  const report = (message: string) => (error: unknown) => options.onError?.(message, error);
  const ready = Promise.all([
    files.recover().catch(report("start-up sweep of files failed")),
    batches.sweep().catch(report("start-up sweep of batches failed")),
  ]).then(() => undefined);
  const timer =
    options.intervalMs > 0
      ? setInterval(() => {
          void (options.turn?.() ?? Promise.resolve(true))
            .then(async (turn) => {
              if (!turn) return;
              await files.sweep().catch(report("sweeping files failed"));
              await caches.sweep().catch(report("sweeping caches failed"));
              await batches.sweep().catch(report("sweeping batches failed"));
            })
            .catch(report("housekeeping failed"));
        }, options.intervalMs)
      : null;
  timer?.unref();
  return {
    ready,
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
