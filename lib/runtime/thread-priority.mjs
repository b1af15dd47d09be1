// Bulk work (a 16 MB body, a long text's tokens) runs on worker threads so that it never holds
// the request thread; on a machine with few cores it still competes with that thread for one.
// Linux schedules threads, not processes, and lets a thread lower its own priority, so a bulk
// worker gives way whenever the request thread is ready. With autogroups (the default) the
// niceness weighs only against the server's own threads, not other programs. Plain .mjs: the
// unbundled tokenizer worker imports it too.
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/**
 * The niceness of a bulk worker thread: against a ready request thread it gets about a tenth
 * of a shared core, while alone it still has a whole one.
 */
export const BULK_NICENESS = 10;

/**
 * Lowers the calling thread's scheduling priority to `niceness`. Only Linux exposes the thread
 * (`/proc/thread-self`); elsewhere setPriority would lower the whole process, so it does
 * nothing. Returns whether it lowered it.
 */
export function lowerThisThreadPriority(niceness = BULK_NICENESS) {
  let threadLink;
  try {
    threadLink = readlinkSync("/proc/thread-self");
  } catch {
    return false;
  }
  const threadId = Number(threadLink.slice(threadLink.lastIndexOf("/") + 1));
  if (!Number.isInteger(threadId) || threadId <= 0) return false;
  try {
    setPriority(threadId, niceness);
    return true;
  } catch {
    return false;
  }
}
