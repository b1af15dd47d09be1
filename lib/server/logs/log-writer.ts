import "server-only";
import type { StoredRequestLog } from "@/lib/db/stores/request-log-store";
import { logger } from "../config/logger";
import { dataStores } from "../persistence/database-handle";

/**
 * Log entries wait here a moment and are written together, off every request's path; a write
 * that fails is tried again with the next (entries past MAX_PENDING_BYTES are dropped, and the
 * log says so, rather than holding memory while the database is away). Entries whose
 * retention ran out are swept every SWEEP_MS by one instance at a time.
 */

const FLUSH_DELAY_MS = 200;
/** Entries written in one statement at most. */
const ENTRIES_PER_STATEMENT = 50;
const MAX_PENDING_BYTES = 64 * 1024 * 1024;
const SWEEP_MS = 60_000;

interface PendingLogs {
  entries: StoredRequestLog[];
  bytes: number;
  scheduled: boolean;
  flushing: Promise<void> | null;
  sweeper: NodeJS.Timeout | null;
}

const holder = globalThis as typeof globalThis & { genstudioPendingLogs?: PendingLogs };

function pending(): PendingLogs {
  holder.genstudioPendingLogs ??= {
    entries: [],
    bytes: 0,
    scheduled: false,
    flushing: null,
    sweeper: null,
  };
  return holder.genstudioPendingLogs;
}

/** Writes every waiting entry; resolves when they are written. */
export async function flushLogEntries(): Promise<void> {
  const queue = pending();
  while (queue.flushing) await queue.flushing;
  if (queue.entries.length === 0) return;
  const entries = queue.entries;
  queue.entries = [];
  queue.bytes = 0;
  queue.flushing = (async () => {
    const { requestLogs } = await dataStores();
    let written = 0;
    try {
      for (; written < entries.length; written += ENTRIES_PER_STATEMENT)
        await requestLogs.add(entries.slice(written, written + ENTRIES_PER_STATEMENT));
    } catch (error) {
      logger.warn("writing request logs failed; they are kept for the next write", error);
      for (const entry of entries.slice(written)) keep(queue, entry);
      throw error;
    } finally {
      queue.flushing = null;
    }
  })();
  await queue.flushing;
}

function keep(queue: PendingLogs, entry: StoredRequestLog): void {
  const size = entry.exchangeJson.length;
  if (queue.bytes + size > MAX_PENDING_BYTES) {
    logger.warn("a request log entry was dropped: too many are waiting for the database");
    return;
  }
  queue.entries.push(entry);
  queue.bytes += size;
}

function schedule(queue: PendingLogs): void {
  if (queue.scheduled) return;
  queue.scheduled = true;
  setTimeout(() => {
    queue.scheduled = false;
    flushLogEntries().catch(() => schedule(queue));
  }, FLUSH_DELAY_MS).unref();
}

function startSweeping(queue: PendingLogs): void {
  if (queue.sweeper !== null) return;
  queue.sweeper = setInterval(() => {
    void (async () => {
      const stores = await dataStores();
      // One token a minute shared by every instance: whoever takes it sweeps.
      const turn = await stores.limits.take(
        "request-log-sweep",
        { requestsPerMinute: 60_000 / SWEEP_MS, burst: 1 },
        Date.now(),
      );
      if (turn.taken) await stores.requestLogs.sweep(Date.now());
    })().catch((error: unknown) => logger.warn("sweeping request logs failed", error));
  }, SWEEP_MS);
  queue.sweeper.unref();
}

/** Queues an entry to be written shortly. */
export function enqueueLogEntry(entry: StoredRequestLog): void {
  const queue = pending();
  keep(queue, entry);
  schedule(queue);
  startSweeping(queue);
}

/** Starts the retention sweep (at start-up: entries may be waiting from an earlier run). */
export function startLogRetention(): void {
  startSweeping(pending());
}
