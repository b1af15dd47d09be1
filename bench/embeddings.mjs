#!/usr/bin/env node
// The local engine's embeddings, for bench/README.md ("Embeddings"). Needs a production build
// (`npm run build`).
//
//   node bench/embeddings.mjs [--texts 20000] [--concurrency 4] [--rounds 3] [--baseline <dir>]
//
// --baseline: another checkout with its own production build (say, main's, for a before and
// after): its server runs beside this one's, and each throughput round alternates between the
// two, so both are measured under the same load; retrieval is measured on both too.
// One local-engine server of its own (rate limit off). Two measures, in one run:
// 1. Retrieval: the labelled set bench/embedding-retrieval-set.json (documents embedded as
//    RETRIEVAL_DOCUMENT, each question as RETRIEVAL_QUERY, both with batchEmbedContents); top-1
//    accuracy (a question's nearest document is its own) per model and size, beside the random
//    baseline (one document in N) and a word-overlap baseline (the document sharing most words).
// 2. Throughput: --texts short texts (6 to 12 words) embedded with batchEmbedContents, 100 a
//    request, --concurrency requests in flight, at each size side by side; texts a second over
//    the whole run, the best of --rounds. Twice at each size: with each answer parsed by the
//    client (JSON.parse of 3,072 numbers a text costs this client about as much as the server
//    spends writing them, on the same cores), and with each answer read whole but not parsed
//    (its vectors counted by their keys): the server's own throughput. Beside them, the
//    client's ceiling: one answer's decode and JSON.parse alone, repeated, in texts a second.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";

const { values } = parseArgs({
  options: {
    texts: { type: "string", default: "20000" },
    concurrency: { type: "string", default: "4" },
    rounds: { type: "string", default: "3" },
    baseline: { type: "string" },
  },
});
const TEXTS = Number(values.texts);
const CONCURRENCY = Number(values.concurrency);
const ROUNDS = Number(values.rounds);
const KEY = "genstudio-dev-key";
const BATCH = 100;
const SET = JSON.parse(
  fs.readFileSync(new URL("./embedding-retrieval-set.json", import.meta.url), "utf8"),
);

async function embedAll(baseUrl, model, texts, options = {}) {
  const vectors = [];
  for (let start = 0; start < texts.length; start += BATCH) {
    const requests = texts.slice(start, start + BATCH).map((text) => ({
      model: `models/${model}`,
      content: { parts: [{ text }] },
      ...options,
    }));
    const response = await fetch(`${baseUrl}/v1beta/models/${model}:batchEmbedContents`, {
      method: "POST",
      headers: { "x-goog-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify({ requests }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    vectors.push(...body.embeddings.map((embedding) => embedding.values));
  }
  return vectors;
}

function cosine(left, right) {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let index = 0; index < left.length; index++) {
    dot += left[index] * right[index];
    leftNorm += left[index] * left[index];
    rightNorm += right[index] * right[index];
  }
  return dot / Math.sqrt(leftNorm * rightNorm);
}

/** Share of queries whose best-scoring document is their own. */
function topOne(score) {
  let hits = 0;
  SET.queries.forEach((query, queryIndex) => {
    let best = -1;
    let bestScore = -Infinity;
    SET.documents.forEach((_, documentIndex) => {
      const value = score(queryIndex, documentIndex);
      if (value > bestScore) {
        bestScore = value;
        best = documentIndex;
      }
    });
    if (SET.documents[best].id === query.document) hits += 1;
  });
  return hits / SET.queries.length;
}

const words = (text) => new Set(text.toLowerCase().match(/[a-z0-9']+/g) ?? []);

async function retrieval(baseUrl) {
  const rows = [];
  const documentWords = SET.documents.map((document) => words(document.text));
  const queryWords = SET.queries.map((query) => words(query.text));
  const overlap = topOne((query, document) => {
    let shared = 0;
    for (const word of queryWords[query]) if (documentWords[document].has(word)) shared += 1;
    return shared;
  });
  for (const model of ["gemini-embedding-001", "gemini-embedding-2"]) {
    for (const size of [undefined, 768, 128]) {
      const sizing = size ? { outputDimensionality: size } : {};
      const documents = await embedAll(
        baseUrl,
        model,
        SET.documents.map((document) => document.text),
        { taskType: "RETRIEVAL_DOCUMENT", ...sizing },
      );
      const queries = await embedAll(
        baseUrl,
        model,
        SET.queries.map((query) => query.text),
        { taskType: "RETRIEVAL_QUERY", ...sizing },
      );
      const accuracy = topOne((query, document) => cosine(queries[query], documents[document]));
      rows.push({ model, size: size ?? 3072, accuracy });
    }
  }
  return { rows, random: 1 / SET.documents.length, overlap };
}

const VOCABULARY =
  "river lantern copper meadow signal orchard granite willow compass ember falcon harbor bread soup garden planet market engine violin puppy travel ticket budget winter summer window".split(
    " ",
  );

function shortTexts(count) {
  const texts = [];
  let state = 7;
  for (let index = 0; index < count; index++) {
    const length = 6 + (index % 7);
    const picked = [];
    for (let word = 0; word < length; word++) {
      state = (state * 1103515245 + 12345) >>> 0;
      picked.push(VOCABULARY[state % VOCABULARY.length]);
    }
    texts.push(`${picked.join(" ")} ${index}`);
  }
  return texts;
}

/**
 * Vectors in an answer read whole without parsing it: its `"values"` keys counted in each chunk
 * where it lies (no copy), and across the seam between two chunks. The server's side of the
 * throughput, apart from the client's own JSON.parse of 3,072 numbers a text on the same cores.
 */
async function vectorsIn(body) {
  const key = Buffer.from('"values"');
  let count = 0;
  let tail = Buffer.alloc(0);
  for await (const chunk of body) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // A key across the seam: the last bytes of the chunk before and the first of this one
    // (too short to hold a whole key on either side).
    const seam = Buffer.concat([tail, bytes.subarray(0, key.length - 1)]);
    for (let at = seam.indexOf(key); at !== -1; at = seam.indexOf(key, at + 1)) count++;
    for (let at = bytes.indexOf(key); at !== -1; at = bytes.indexOf(key, at + key.length)) count++;
    // The last bytes read so far (of more than one chunk when the chunks are that short).
    const end = bytes.length >= key.length - 1 ? bytes : Buffer.concat([tail, bytes]);
    tail = Buffer.from(end.subarray(Math.max(0, end.length - key.length + 1)));
  }
  return count;
}

async function throughput(baseUrl, texts, size, parse = true) {
  const requests = [];
  for (let start = 0; start < texts.length; start += BATCH) {
    requests.push(
      JSON.stringify({
        requests: texts.slice(start, start + BATCH).map((text) => ({
          content: { parts: [{ text }] },
          ...(size ? { outputDimensionality: size } : {}),
        })),
      }),
    );
  }
  let next = 0;
  let embedded = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < requests.length) {
      const body = requests[next++];
      const response = await fetch(
        `${baseUrl}/v1beta/models/gemini-embedding-001:batchEmbedContents`,
        {
          method: "POST",
          headers: { "x-goog-api-key": KEY, "content-type": "application/json" },
          body,
        },
      );
      if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
      if (parse) embedded += (await response.json()).embeddings.length;
      else embedded += await vectorsIn(response.body);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  return embedded / seconds;
}

/**
 * The client's own ceiling when it parses: one answer of BATCH texts at `size` values fetched
 * once, then its text decoded and JSON.parse'd over and over on this process's one thread, in
 * texts a second (no server work counted). Parsed throughput cannot pass it.
 */
async function parseCeiling(baseUrl, texts, size) {
  const response = await fetch(`${baseUrl}/v1beta/models/gemini-embedding-001:batchEmbedContents`, {
    method: "POST",
    headers: { "x-goog-api-key": KEY, "content-type": "application/json" },
    body: JSON.stringify({
      requests: texts.slice(0, BATCH).map((text) => ({
        content: { parts: [{ text }] },
        ...(size ? { outputDimensionality: size } : {}),
      })),
    }),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const decoder = new TextDecoder();
  let runs = 0;
  const started = performance.now();
  while (performance.now() - started < 1000 || runs < 3) {
    JSON.parse(decoder.decode(bytes));
    runs++;
  }
  return (runs * BATCH) / ((performance.now() - started) / 1000);
}

function printRetrieval(label, { rows, random, overlap }) {
  console.log(
    `Retrieval${label}, ${SET.queries.length} questions over ${SET.documents.length} documents (top-1 accuracy):`,
  );
  console.log(`  random baseline ${(random * 100).toFixed(1)} %`);
  console.log(`  word overlap     ${(overlap * 100).toFixed(1)} %`);
  for (const row of rows)
    console.log(
      `  ${row.model.padEnd(22)} ${String(row.size).padStart(4)} values ${(row.accuracy * 100).toFixed(1)} %`,
    );
}

const servers = [];
const folders = [];
async function own(label, cwd) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-bench-embeddings-"));
  folders.push(dataDir);
  const server = await startOwnServer({
    dataDir,
    ...(cwd ? { cwd } : {}),
    env: { STUDIO_RATE_LIMIT_PER_MINUTE: "0" },
  });
  servers.push({ label, server });
}
try {
  if (values.baseline) await own("baseline", path.resolve(values.baseline));
  await own(values.baseline ? "this build" : "", undefined);
  for (const { label, server } of servers)
    printRetrieval(label ? ` (${label})` : "", await retrieval(server.baseUrl));
  const texts = shortTexts(TEXTS);
  // Warm-up: the first requests compile the route and load the vocabulary.
  for (const { server } of servers) await throughput(server.baseUrl, texts.slice(0, 1000), 768);
  console.log(
    `\nThroughput, ${TEXTS} short texts, batchEmbedContents of ${BATCH}, ${CONCURRENCY} in flight, best of ${ROUNDS}${servers.length > 1 ? ", rounds alternating between the servers" : ""} (load average before: ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}):`,
  );
  for (const size of [3072, 768, 256]) {
    for (const parse of [true, false]) {
      const best = servers.map(() => 0);
      for (let round = 0; round < ROUNDS; round++)
        for (const [index, { server }] of servers.entries())
          best[index] = Math.max(
            best[index],
            await throughput(server.baseUrl, texts, size === 3072 ? undefined : size, parse),
          );
      console.log(
        `  ${String(size).padStart(4)} values, ${parse ? "answers parsed  " : "answers read raw"}: ${servers.map(({ label }, index) => `${Math.round(best[index])} texts/s${label ? ` (${label})` : ""}`).join(", ")}`,
      );
    }
    const ceiling = await parseCeiling(
      servers.at(-1).server.baseUrl,
      texts,
      size === 3072 ? undefined : size,
    );
    console.log(
      `  ${String(size).padStart(4)} values, the client's decode and JSON.parse alone: ${Math.round(ceiling)} texts/s`,
    );
  }
  console.log(
    `(load average after: ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")})`,
  );
} finally {
  for (const { server } of servers) await server.stop();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
}
