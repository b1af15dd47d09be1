/**
 * What the local engine keeps on the server's heap once it has answered: both tokenizer
 * families' language models trained, 72 seeded answers made. Prints the heap in use, the time
 * of one full collection (which every main-thread mark-compact pays: bench/README.md, "No
 * request takes the service down, round two"), and a digest of the answers, so two builds can
 * be compared for memory and checked to answer alike.
 * Run: `NODE_OPTIONS=--expose-gc npx vitest bench --run bench/engine-heap.bench.ts`; each run is
 * a fresh process. With HEAP_SNAPSHOT=<file> it also writes a heap snapshot there.
 */
import { createHash } from "node:crypto";
import v8 from "node:v8";
import { bench, describe } from "vitest";
import { requireModel } from "@/lib/engine/catalog";
import { standAloneAnswer } from "@/lib/engine/generate";

const PROMPTS = [
  "Tell me about lighthouses.",
  "Write a Python function that reverses a list.",
  "Why is the sky blue? Explain like I am five, then give a formula.",
];

/** A digest of seeded answers of one 2.5 and one 2.0 model (one model of each family). */
async function answersDigest(): Promise<string> {
  const digest = createHash("sha256");
  for (const model of ["gemini-2.5-flash", "gemini-2.0-flash"]) {
    const entry = requireModel(model, "generateContent");
    for (let seed = 1; seed <= 12; seed++)
      for (const text of PROMPTS)
        for await (const chunk of standAloneAnswer(entry, text, {
          seed,
          temperature: 1,
          maxOutputTokens: 200,
        }))
          digest.update(JSON.stringify(chunk.candidates ?? []));
  }
  return digest.digest("hex").slice(0, 16);
}

/** Milliseconds of one full collection. */
function fullCollection(collect: () => void): number {
  const start = performance.now();
  collect();
  return performance.now() - start;
}

describe("the engine's heap", async () => {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error("Run with NODE_OPTIONS=--expose-gc.");
  const digest = await answersDigest();
  collect();
  const heap = v8.getHeapStatistics().used_heap_size;
  const collections = [1, 2, 3].map(() => fullCollection(collect));
  if (process.env.HEAP_SNAPSHOT) v8.writeHeapSnapshot(process.env.HEAP_SNAPSHOT);
  console.log(
    `answers ${digest}; heap in use ${(heap / 1e6).toFixed(1)} MB; a full collection ${collections.map((ms) => ms.toFixed(1)).join(", ")} ms`,
  );
  bench("a full collection", () => void collect(), { iterations: 10, time: 0 });
});
