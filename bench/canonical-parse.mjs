#!/usr/bin/env node
// What the canonical parse costs the gateway per request, measured in-process (the HTTP
// bench, bench/gateway.mjs --compare, cannot resolve a fraction of a millisecond on a shared
// machine). For the countTokens body of bench/gateway.mjs and a few larger ones: JSON.parse
// alone (what the previous gateway did before its reference walk), then JSON.parse + the
// canonical read (lib/gemini/validate) + the reference list (lib/gemini/references).
// Usage: node bench/canonical-parse.mjs [--iterations 20000]
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createJiti } from "jiti";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const iterations = Number(process.argv[process.argv.indexOf("--iterations") + 1]) || 20_000;
const jiti = createJiti(import.meta.url, { alias: { "@": root } });
const { readCountTokensRequest, readGenerateContentRequest } = await jiti.import(
  path.join(root, "lib/gemini/validate.ts"),
);
const { requestReferences } = await jiti.import(path.join(root, "lib/gemini/references.ts"));

const bodies = {
  "countTokens, one sentence (bench/gateway.mjs)": {
    operation: "countTokens",
    text: JSON.stringify({
      contents: [{ parts: [{ text: "The quick brown fox jumps over the lazy dog." }] }],
    }),
  },
  "generateContent, 20 turns with a file each, tools, config": {
    operation: "generateContent",
    text: JSON.stringify({
      contents: Array.from({ length: 20 }, (_, index) => ({
        role: index % 2 ? "model" : "user",
        parts: [
          { text: `Turn ${index}: tell me more about rivers and their valleys.` },
          { file_data: { file_uri: `files/file${index}`, mime_type: "text/plain" } },
        ],
      })),
      tools: [
        {
          functionDeclarations: [
            {
              name: "lookup",
              parameters: { type: "OBJECT", properties: { term: { type: "STRING" } } },
            },
          ],
        },
      ],
      generationConfig: { temperature: 0.7, maxOutputTokens: 256, seed: 7 },
    }),
  },
  "countTokens, 1 MB of text in one part": {
    operation: "countTokens",
    text: JSON.stringify({ contents: [{ parts: [{ text: "word ".repeat(200_000) }] }] }),
  },
};

function percentiles(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { p50: at(0.5) };
}

/** Times both pieces of work alternately, so both see the same heap and machine load. */
function measurePair(first, second, count) {
  for (let index = 0; index < Math.min(2_000, count); index++) {
    first();
    second();
  }
  const times = [[], []];
  for (let index = 0; index < count; index++) {
    for (const [slot, work] of [first, second].entries()) {
      const started = performance.now();
      work();
      times[slot].push(performance.now() - started);
    }
  }
  return times.map(percentiles);
}

const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;
console.log(`canonical parse bench: Node ${process.version}, ${new Date().toISOString()}`);
console.log(`| body | JSON.parse p50 | JSON.parse + canonical read + references p50 | added p50 |`);
console.log(`|---|---|---|---|`);
for (const [label, { operation, text }] of Object.entries(bodies)) {
  const count = text.length > 100_000 ? 500 : iterations;
  const read = operation === "countTokens" ? readCountTokensRequest : readGenerateContentRequest;
  const [parseOnly, canonical] = measurePair(
    () => JSON.parse(text),
    () => {
      const request = read(JSON.parse(text));
      requestReferences({ operation, request });
    },
    count,
  );
  console.log(
    `| ${label} (${(text.length / 1024).toFixed(1)} KiB) | ${us(parseOnly.p50)} | ${us(canonical.p50)} | ${us(canonical.p50 - parseOnly.p50)} |`,
  );
}
