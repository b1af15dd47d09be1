/**
 * The local engine's first answer after its start-up warm-up against later ones, in one
 * process without HTTP (see bench/README.md, "The studio in daily use", branch studio-quiet):
 * the warm-up runs, the machine is left 2 s, then a streamed answer of gemini-2.5-flash and six
 * more, each timed from the call to its first chunk. `WARM_UP=single` warms with one answer of
 * 64 tokens instead (the warm-up before it ran several answers), for a before/after.
 * Run: `WARM_UP=single npx vitest bench --run bench/engine-first-answer.bench.ts`, then without
 * WARM_UP; each run is a fresh process.
 */
import { bench, describe } from "vitest";
import { requireModel } from "@/lib/engine/catalog";
import { standAloneAnswer, warmUpGeneration } from "@/lib/engine/generate";

const entry = requireModel("gemini-2.5-flash", "generateContent");

/** Milliseconds from the call to the first chunk of a streamed answer to `text`. */
async function firstChunk(text: string, maxOutputTokens?: number): Promise<number> {
  const start = performance.now();
  let first = -1;
  for await (const _chunk of standAloneAnswer(
    entry,
    text,
    maxOutputTokens ? { maxOutputTokens } : undefined,
  ))
    if (first < 0) first = performance.now() - start;
  return first;
}

describe("first answer after the warm-up", async () => {
  const started = performance.now();
  if (process.env.WARM_UP === "single")
    await firstChunk("Hello! What can you tell me about harbours?", 64);
  else await warmUpGeneration(entry);
  const warmUp = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const first = await firstChunk("Hello! What can you tell me about harbours?");
  const warm: number[] = [];
  for (let run = 0; run < 6; run++) warm.push(await firstChunk(`And about lighthouses, ${run}?`));
  const median = [...warm].sort((left, right) => left - right)[3]!;
  console.log(
    `warm-up (${process.env.WARM_UP === "single" ? "one answer of 64 tokens" : "warmUpGeneration"}) ${warmUp.toFixed(0)} ms; first chunk of the first answer ${first.toFixed(1)} ms; later answers ${warm.map((value) => value.toFixed(1)).join(", ")} ms (median ${median.toFixed(1)}); ratio ${(first / median).toFixed(2)}`,
  );
  bench(
    "a later answer's first chunk",
    async () => {
      await firstChunk("And one more about harbours?");
    },
    { iterations: 5, time: 0 },
  );
});
