/**
 * Candidates advance side by side, a few tokens each per chunk (4 in the first, 16 after, 64
 * while every one thinks silently), with a turn of the event loop between chunks so a closed
 * client stops the work.
 */
import type { CandidateDelta, CandidateRun } from "./candidate";
import { eventLoopTurn } from "./cancellation";
import { countGeneratedTokens } from "./generation-stats";

const FIRST_CHUNK_TOKENS = 4;
const CHUNK_TOKENS = 16;
/** Tokens produced between event-loop turns while candidates think without showing it. */
const SILENT_SLICE_TOKENS = 64;

function totalTokens(runs: readonly CandidateRun[]): number {
  return runs.reduce((sum, run) => sum + run.answerTokens + run.thoughtTokens, 0);
}

/**
 * What each step of the candidates has to send, until all are finished: never an empty
 * list (hidden thinking sends nothing, but still lets the event loop run). Stops when the
 * signal aborts.
 */
export async function* advanceInLockStep(
  runs: readonly CandidateRun[],
  signal: AbortSignal,
): AsyncGenerator<CandidateDelta[], void, undefined> {
  let first = true;
  while (runs.some((run) => !run.finished)) {
    const budget = runs.every((run) => run.finished || run.thinkingSilently)
      ? SILENT_SLICE_TOKENS
      : first
        ? FIRST_CHUNK_TOKENS
        : CHUNK_TOKENS;
    const before = totalTokens(runs);
    const deltas: CandidateDelta[] = [];
    for (const run of runs) {
      const delta = run.advance(budget);
      if (delta) deltas.push(delta);
    }
    countGeneratedTokens(totalTokens(runs) - before);
    if (deltas.length === 0) {
      await eventLoopTurn();
      if (signal.aborted) return;
      continue;
    }
    first = false;
    yield deltas;
    if (signal.aborted) return;
    // Let the event loop flush the chunk and notice a closed client before the next one.
    await eventLoopTurn();
    if (signal.aborted) return;
  }
}
