/** Types of thread-priority.mjs (plain JS so the unbundled tokenizer worker imports it). */

/** The niceness of a bulk worker thread. */
export const BULK_NICENESS: number;

/** Lowers the calling thread's scheduling priority (Linux only); whether it did. */
export function lowerThisThreadPriority(niceness?: number): boolean;
