/**
 * An optional output speed for the local engine's streams: chunks are held back so that the
 * candidates' tokens arrive no faster than the given rate, as the service's answers arrive
 * (about 100 to 300 tokens a second), for clients whose behaviour depends on an answer being in
 * flight for a while (stop buttons, reattaching, progress). Unary answers are never paced.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { GenerateContentResponse } from "@/lib/gemini/types";

/** Output tokens a chunk's running usage says were written so far (thoughts included). */
function tokensSoFar(chunk: GenerateContentResponse): number {
  const usage = chunk.usageMetadata;
  return (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0);
}

/**
 * Passes `chunks` on at most `tokensPerSecond` output tokens a second, measured from the first
 * chunk; the wait ends early when `signal` aborts (the caller's stream is then being closed).
 */
export async function* paceOutput(
  chunks: AsyncIterable<GenerateContentResponse>,
  tokensPerSecond: number,
  signal?: AbortSignal,
): AsyncGenerator<GenerateContentResponse> {
  let started: number | undefined;
  for await (const chunk of chunks) {
    started ??= performance.now();
    const due = started + (tokensSoFar(chunk) / tokensPerSecond) * 1000;
    const wait = due - performance.now();
    if (wait > 0) {
      try {
        await sleep(wait, undefined, { signal });
      } catch {
        return;
      }
    }
    yield chunk;
  }
}
