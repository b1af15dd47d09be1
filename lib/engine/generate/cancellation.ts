/**
 * A generation stops when its client goes away (the request's signal): checked before each
 * piece of work, and between chunks, after a turn of the event loop lets the signal arrive.
 */
import { ApiError } from "@/lib/gemini/api-error";

/** The 499 a generation ends with when its client cancelled it before it answered. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted)
    throw new ApiError(499, "CANCELLED", "The request was cancelled by the client.");
}

/** One turn of the event loop: written chunks flush, and a closed client's abort arrives. */
export function eventLoopTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
