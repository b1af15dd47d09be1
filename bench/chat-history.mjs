#!/usr/bin/env node
// Chat history benchmark (bench/README.md, "Chat history").
//
//   npm run build && node bench/chat-history.mjs [--part writes|reattach|search] [--paces 1000,200]
//     [--reattach-pace 200] [--database-url postgres://…] [--conversations 10000 --messages 100]
//
// Starts its own servers from the production build (fresh DATA_DIR each) and measures:
//   writes    a 20,000-token answer generated server-side: database writes of the answer,
//             counted by triggers in the database itself (each INSERT/UPDATE of its row), from
//             the local engine (seconds) and through the gateway from a stand-in upstream that
//             streams at --paces tokens a second (the service's pace: a minute or two);
//   reattach  joining a live answer (GET /api/conversations/{id}/turns/{answerId}) over and
//             over while it is generated: time to the first event (the answer so far, which the
//             page shows at once) and to the first new text after it; the same from a second
//             instance on the same database, which follows what the first one writes: joins
//             back to back (the answer stays followed between them) and cold joins, each after
//             4 s with no one following. The local engine streams at --reattach-pace tokens a
//             second (default 200, the service's pace), so the answer is still live for every
//             join. Both instances share one SQLite file, or with --database-url one PostgreSQL
//             server (a fresh schema on it, dropped after), as several instances are deployed;
//   search    full-text search over --conversations conversations of --messages messages each
//             (1,000,000 messages by default), bulk-loaded into the database, through
//             GET /api/conversations?q=… (HTTP round trip included), p50/p90 per kind of query,
//             and the server's CPU time per search (from /proc: what the search costs whatever
//             else the machine is doing). `--search-data DIR` keeps the loaded database in DIR
//             and uses it again on the next run instead of loading it anew.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import pg from "pg";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index < 0 ? fallback : (args[index + 1] ?? fallback);
};
const PART = option("part", "all");
/** Paces of the stand-in upstream for the writes part, tokens a second. */
const PACES = option("paces", "1000,200").split(",").map(Number);
/** The local engine's pace in the reattach part, tokens a second (0: as fast as it generates). */
const REATTACH_PACE = option("reattach-pace", "200");
/** PostgreSQL server for the reattach part's two instances (default: one SQLite file). */
const DATABASE_URL = option("database-url", null);
/** A cold join waits this long after the last one, so no one follows the answer any more. */
const COLD_GAP_MS = 4000;
const KEY = "genstudio-dev-key";
const OWNER = "key:dev";
const HEADERS = { "content-type": "application/json", "x-goog-api-key": KEY };
const SETTINGS = (maxOutputTokens) => ({
  model: "models/gemini-2.5-flash",
  systemInstruction: "",
  generationConfig: { maxOutputTokens, thinkingConfig: { thinkingBudget: 0 } },
  safetySettings: [],
});
const SENTENCE = "The tide comes in over the warm sand and goes out again. ";

function percentile(values, fraction) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}
/** CPU time (user + system) a process has used so far, in ms (Linux /proc, 100 ticks a second). */
function cpuMilliseconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const ms = (value) => (value === undefined ? "—" : `${value.toFixed(1)} ms`);

/** Reads an SSE body event by event; `onEvent` returns true to stop reading. */
async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\r\n\r\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 4);
        if (block.startsWith("data: ") && onEvent(JSON.parse(block.slice(6)))) return;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

async function startTurn(url, conversationId, answerId, text, maxOutputTokens) {
  const response = await fetch(`${url}/api/conversations/${conversationId}/turns`, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      parentId: null,
      prompt: { id: `${answerId}-prompt`, content: { role: "user", parts: [{ text }] } },
      answerId,
      settings: SETTINGS(maxOutputTokens),
      create: {},
    }),
  });
  if (!response.ok) throw new Error(`turn refused: ${response.status} ${await response.text()}`);
  return response;
}

const chunkText = (event) =>
  (event.chunk?.candidates?.[0]?.content?.parts ?? []).map((part) => part.text ?? "").join("");

/**
 * A stand-in for the service: streams `tokens` one-word tokens at `perSecond`, a chunk every
 * 100 ms, with the usage the service reports, so the gateway's answer arrives at a real pace.
 */
async function pacedUpstream(tokens, perSecond) {
  const words = ["tide", "sand", "shore", "wave", "gull", "dune", "reef", "salt"];
  const server = http.createServer((request, response) => {
    request.resume();
    if (request.method !== "POST" || !request.url.includes(":streamGenerateContent")) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ error: { code: 404, message: "Not found.", status: "NOT_FOUND" } }),
      );
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream" });
    const perChunk = Math.max(1, Math.round(perSecond / 10));
    let sent = 0;
    const timer = setInterval(() => {
      const count = Math.min(perChunk, tokens - sent);
      const text = Array.from(
        { length: count },
        (_, index) => words[(sent + index) % words.length],
      ).join(" ");
      sent += count;
      const last = sent >= tokens;
      const chunk = {
        candidates: [
          {
            content: { role: "model", parts: [{ text: `${text} ` }] },
            index: 0,
            ...(last ? { finishReason: "STOP" } : {}),
          },
        ],
        usageMetadata: {
          promptTokenCount: 8,
          candidatesTokenCount: sent,
          totalTokenCount: sent + 8,
        },
        modelVersion: "gemini-2.5-flash",
      };
      response.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
      if (last) {
        clearInterval(timer);
        response.end();
      }
    }, 100);
    response.on("close", () => clearInterval(timer));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/** Every INSERT and UPDATE of a message row, counted by triggers in the database itself. */
function countMessageWrites(dataDir) {
  const db = new Database(path.join(dataDir, "genstudio.sqlite"));
  db.exec(`
    CREATE TABLE bench_writes (id TEXT, kind TEXT, at INTEGER);
    CREATE TRIGGER bench_insert AFTER INSERT ON conversation_messages
      BEGIN INSERT INTO bench_writes VALUES (new.id, 'insert', unixepoch('subsec') * 1000); END;
    CREATE TRIGGER bench_update AFTER UPDATE ON conversation_messages
      BEGIN INSERT INTO bench_writes VALUES (new.id,
        CASE WHEN new.message_json IS old.message_json THEN 'update' ELSE 'text' END,
        unixepoch('subsec') * 1000); END;
  `);
  db.close();
}

/** Joins an answer on `url` and reads it to its end. */
async function followToEnd(url, conversationId, answerId) {
  const response = await fetch(`${url}/api/conversations/${conversationId}/turns/${answerId}`, {
    headers: { "x-goog-api-key": KEY },
  });
  await readEvents(response, (event) => Boolean(event.done));
}

/** `follow`: a second instance on the same data joins each answer at once and reads it to its end. */
async function writesOfOneAnswer(label, environment, runs, follow = false) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "genstudio-bench-history-"));
  let server = await startOwnServer({ dataDir, env: environment });
  await server.stop("SIGTERM"); // migrations applied; now count every write of a message row
  countMessageWrites(dataDir);
  server = await startOwnServer({ dataDir, env: environment });
  const follower = follow ? await startOwnServer({ dataDir, env: environment }) : null;
  const results = [];
  try {
    for (let run = 0; run < runs; run++) {
      const answerId = `answer-${run}`;
      const started = performance.now();
      let chunks = 0;
      let characters = 0;
      let usage;
      const conversationId = `bench-writes-conversation-${run}`;
      const response = await startTurn(
        server.baseUrl,
        conversationId,
        answerId,
        `Repeat after me: ${SENTENCE.repeat(2000)}`,
        20_000,
      );
      const following = follower && followToEnd(follower.baseUrl, conversationId, answerId);
      await readEvents(response, (event) => {
        if (event.chunk) {
          chunks += 1;
          characters += chunkText(event).length;
        }
        if (event.done) usage = event.done.answer.usageMetadata;
        return Boolean(event.done);
      });
      const seconds = (performance.now() - started) / 1000;
      await following;
      const check = new Database(path.join(dataDir, "genstudio.sqlite"), { readonly: true });
      const writes = check
        .prepare("SELECT kind, COUNT(*) AS n FROM bench_writes WHERE id = ? GROUP BY kind")
        .all(answerId);
      check.close();
      const count = (kind) => writes.find((row) => row.kind === kind)?.n ?? 0;
      results.push({
        label,
        tokens: usage?.candidatesTokenCount,
        chunks,
        characters,
        seconds,
        inserts: count("insert"),
        updates: count("update") + count("text"),
        textUpdates: count("text"),
      });
    }
  } finally {
    await server.stop("SIGTERM");
    await follower?.stop("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

async function measureWrites() {
  const results = await writesOfOneAnswer("local engine", {}, 3);
  const slowest = Math.min(...PACES);
  for (const [perSecond, follow] of [...PACES.map((pace) => [pace, false]), [slowest, true]]) {
    const upstream = await pacedUpstream(20_000, perSecond);
    try {
      results.push(
        ...(await writesOfOneAnswer(
          `gateway, upstream at ${perSecond} tokens/s${follow ? ", followed from another instance" : ""}`,
          {
            GEMINI_API_KEY: "bench-upstream-key-0123456789",
            GEMINI_BASE_URL: upstream.url,
            STUDIO_API_KEYS: `dev:${KEY}`,
          },
          1,
          follow,
        )),
      );
    } finally {
      upstream.close();
    }
  }
  console.log("\n## Writes of a 20,000-token answer\n");
  console.log(
    "| source | tokens | chunks streamed | characters | generation | row writes (insert + updates) | updates that wrote text |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const result of results)
    console.log(
      `| ${result.label} | ${result.tokens?.toLocaleString("en")} | ${result.chunks} | ${result.characters.toLocaleString("en")} | ${result.seconds.toFixed(1)} s | ${result.inserts + result.updates} (${result.inserts} + ${result.updates}) | ${result.textUpdates} |`,
    );
}

/**
 * Joins a live answer again and again, `gapMs` after the last join ended; the time to its
 * first event and to its first new text.
 */
async function reattachSamples(url, conversationId, answerId, samples, stillRunning, gapMs = 0) {
  const first = [];
  const fresh = [];
  for (let index = 0; index < samples && stillRunning(); index++) {
    if (gapMs && index) await new Promise((resolve) => setTimeout(resolve, gapMs));
    const started = performance.now();
    const response = await fetch(`${url}/api/conversations/${conversationId}/turns/${answerId}`, {
      headers: { "x-goog-api-key": KEY },
    });
    let sawFirst = false;
    let baseline = null;
    await readEvents(response, (event) => {
      const now = performance.now() - started;
      if (!sawFirst) {
        sawFirst = true;
        first.push(now);
        baseline = JSON.stringify(event.snapshot ?? event.done ?? event);
        return Boolean(event.done);
      }
      if (event.done) return true;
      const text = event.chunk ? chunkText(event) : JSON.stringify(event.snapshot);
      if (event.chunk ? text.length > 0 : text !== baseline) {
        fresh.push(now);
        return true;
      }
      return false;
    });
  }
  return { first, fresh };
}

/** A fresh schema on the PostgreSQL server at `serverUrl`: its URL, and a drop for the end. */
async function freshSchema(serverUrl) {
  const schema = `bench_${randomBytes(5).toString("hex")}`;
  const run = async (text) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE SCHEMA ${schema}`);
  const url = new URL(serverUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => run(`DROP SCHEMA ${schema} CASCADE`) };
}

async function measureReattach() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "genstudio-bench-reattach-"));
  const database = DATABASE_URL ? await freshSchema(DATABASE_URL) : null;
  const env = {
    STUDIO_LOCAL_OUTPUT_TOKENS_PER_SECOND: REATTACH_PACE,
    ...(database ? { DATABASE_URL: database.url } : {}),
  };
  const server = await startOwnServer({ dataDir, env });
  const second = await startOwnServer({ dataDir, env });
  try {
    // Warm the engine first (tokenizer load, model training).
    await readEvents(
      await startTurn(server.baseUrl, "bench-warm-conversation", "warm", "Hello", 20),
      (event) => Boolean(event.done),
    );
    const rows = [];
    for (const [label, target, samples, gapMs] of [
      ["same instance (live, in memory)", server, 40, 0],
      ["another instance, joins back to back", second, 20, 0],
      [`another instance, cold joins (${COLD_GAP_MS / 1000} s apart)`, second, 10, COLD_GAP_MS],
    ]) {
      const conversationId = `bench-reattach-${rows.length}-conversation`;
      let running = true;
      const answer = startTurn(
        server.baseUrl,
        conversationId,
        "long-answer",
        `Repeat after me: ${SENTENCE.repeat(6000)}`,
        65_536,
      ).then((response) => readEvents(response, (event) => Boolean(event.done)));
      void answer.finally(() => (running = false));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const result = await reattachSamples(
        target.baseUrl,
        conversationId,
        "long-answer",
        samples,
        () => running,
        gapMs,
      );
      await fetch(`${server.baseUrl}/api/conversations/${conversationId}/turns/long-answer/stop`, {
        method: "POST",
        headers: HEADERS,
      });
      await answer;
      rows.push({ label, ...result });
    }
    console.log(
      `\n## Joining a live answer (local engine at ${REATTACH_PACE} tokens/s, ${database ? "PostgreSQL" : "SQLite"})\n`,
    );
    console.log("| where | joins | first event p50 / p90 | first new text p50 / p90 |");
    console.log("|---|---|---|---|");
    for (const row of rows)
      console.log(
        `| ${row.label} | ${row.first.length} | ${ms(percentile(row.first, 0.5))} / ${ms(percentile(row.first, 0.9))} | ${row.fresh.length ? `${ms(percentile(row.fresh, 0.5))} / ${ms(percentile(row.fresh, 0.9))}` : "—"} (${row.fresh.length} of ${row.first.length}) |`,
      );
  } finally {
    await server.stop("SIGTERM");
    await second.stop("SIGTERM");
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A deterministic pseudo-random generator (mulberry32), so every run loads the same text. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

async function measureSearch() {
  const conversations = Number(option("conversations", "10000"));
  const perConversation = Number(option("messages", "100"));
  const kept = option("search-data", null);
  const dataDir = kept ?? mkdtempSync(path.join(os.tmpdir(), "genstudio-bench-search-"));
  let server = await startOwnServer({ dataDir });
  await server.stop("SIGTERM");
  // A vocabulary with a Zipf-like spread: a few words in most messages, most words rare.
  const next = random(20261125);
  const syllables = [
    "ka",
    "lo",
    "mi",
    "ne",
    "ru",
    "ta",
    "vo",
    "shi",
    "den",
    "bar",
    "qua",
    "tor",
    "pel",
    "zin",
  ];
  const vocabulary = Array.from({ length: 20_000 }, (_, index) => {
    let word = "";
    let value = index + 7;
    do {
      word += syllables[value % syllables.length];
      value = Math.floor(value / syllables.length);
    } while (value > 0);
    return word;
  });
  const word = () => vocabulary[Math.floor(vocabulary.length * next() ** 3)];
  const db = new Database(path.join(dataDir, "genstudio.sqlite"));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  const loadStarted = performance.now();
  const loaded = db.prepare("SELECT COUNT(*) AS n FROM conversations").get().n > 0;
  const insertConversation = db.prepare(
    "INSERT INTO conversations (internal_id, id, owner_id, title, settings_json, created_at, updated_at, selected_root_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertMessage = db.prepare(
    "INSERT INTO conversation_messages (conversation_internal_id, id, parent_id, selected_child_id, role, message_json, search_text, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const settings = JSON.stringify(SETTINGS(1000));
  const load = db.transaction((from, to) => {
    for (let conversation = from; conversation < to; conversation++) {
      const id = `bench${String(conversation).padStart(10, "0")}`;
      const time = 1_700_000_000_000 + conversation * 60_000;
      insertConversation.run(id, id, OWNER, `Chat ${word()} ${word()}`, settings, time, time, "m0");
      for (let index = 0; index < perConversation; index++) {
        const role = index % 2 ? "model" : "user";
        const length = role === "user" ? 8 + Math.floor(next() * 20) : 20 + Math.floor(next() * 60);
        const text = Array.from({ length }, word).join(" ");
        insertMessage.run(
          id,
          `m${index}`,
          index ? `m${index - 1}` : null,
          index + 1 < perConversation ? `m${index + 1}` : null,
          role,
          JSON.stringify({ role, content: { role, parts: [{ text }] } }),
          text,
          time + index,
        );
      }
    }
  });
  const step = 200;
  if (!loaded) {
    for (let from = 0; from < conversations; from += step)
      load(from, Math.min(conversations, from + step));
    db.exec("INSERT INTO conversation_search (conversation_search) VALUES ('optimize')");
  }
  const counts = db
    .prepare(
      "SELECT (SELECT COUNT(*) FROM conversations) AS conversations, (SELECT COUNT(*) FROM conversation_messages) AS messages",
    )
    .get();
  db.close();
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  // Searches back to back, faster than a person types: no per-caller rate limit here.
  server = await startOwnServer({ dataDir, env: { STUDIO_RATE_LIMIT_PER_MINUTE: "0" } });
  try {
    const queries = {
      "common word (in most messages)": vocabulary[0],
      "mid-frequency word": vocabulary[60],
      "rare word": vocabulary[15_000],
      "two words": `${vocabulary[3]} ${vocabulary[200]}`,
      "prefix while typing": vocabulary[400].slice(0, 4),
      "no match": "zzzzqqqq",
    };
    const search = async (text) => {
      const started = performance.now();
      const response = await fetch(
        `${server.baseUrl}/api/conversations?q=${encodeURIComponent(text)}`,
        {
          headers: { "x-goog-api-key": KEY },
        },
      );
      const body = await response.json();
      if (!response.ok)
        throw new Error(`search refused: ${response.status} ${JSON.stringify(body)}`);
      return { time: performance.now() - started, found: body.conversations.length };
    };
    const floor = [];
    for (let index = 0; index < 30; index++) {
      const started = performance.now();
      await (await fetch(`${server.baseUrl}/api/session`)).text();
      floor.push(performance.now() - started);
    }
    console.log(
      `\n## Full-text search: ${counts.conversations.toLocaleString("en")} conversations, ${counts.messages.toLocaleString("en")} messages (${loaded ? "kept from an earlier run" : `loaded in ${loadSeconds.toFixed(0)} s`})\n`,
    );
    console.log("| query | results | p50 | p90 | server CPU per search |");
    console.log("|---|---|---|---|---|");
    for (const [label, text] of Object.entries(queries)) {
      await search(text); // warm the pages of this query
      const times = [];
      let found = 0;
      const cpuBefore = cpuMilliseconds(server.serverPid());
      for (let index = 0; index < 30; index++) {
        const result = await search(text);
        times.push(result.time);
        found = result.found;
      }
      const cpu = (cpuMilliseconds(server.serverPid()) - cpuBefore) / 30;
      console.log(
        `| ${label} | ${found} | ${ms(percentile(times, 0.5))} | ${ms(percentile(times, 0.9))} | ${ms(cpu)} |`,
      );
    }
    console.log(
      `| floor: GET /api/session (any request) | — | ${ms(percentile(floor, 0.5))} | ${ms(percentile(floor, 0.9))} | — |`,
    );
  } finally {
    await server.stop("SIGTERM");
    if (!kept) rmSync(dataDir, { recursive: true, force: true });
  }
}

const load = os
  .loadavg()
  .map((value) => value.toFixed(1))
  .join(" / ");
console.log(`Chat history bench, ${new Date().toISOString()}, load average ${load}`);
if (PART === "all" || PART === "writes") await measureWrites();
if (PART === "all" || PART === "reattach") await measureReattach();
if (PART === "all" || PART === "search") await measureSearch();
