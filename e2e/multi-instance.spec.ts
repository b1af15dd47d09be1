/**
 * Several instances, one service: two production servers on one PostgreSQL database and one
 * shared DATA_DIR (the README's "Several instances" commands). Files, uploads, caches and
 * conversations made on one are used on the other; the rate limit is one budget across both;
 * kill -9 of one loses nothing acknowledged and its upload resumes on the other; a chat answer
 * started on one is followed, stopped and finished from the other (new text within a fraction
 * of a second of reopening it there, and batched writes again once no one follows), and reads
 * as interrupted when its instance is killed; the open-streams cap holds across both; a PostgreSQL
 * restart answers 503 UNAVAILABLE while it is down and recovers by itself; a database that is
 * unreachable, read-only for its user, or of a newer schema stops the start with a clear
 * message. Needs TEST_DATABASE_URL (scripts/test.sh starts a server).
 */
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import { startUntilExit } from "./support/start-until-exit";
import { TEST_SERVER_URL, createDatabase, sql } from "./support/test-postgres";
import {
  answerText,
  eventAnswer,
  joinTurn,
  readTurnEvents,
  startTurn,
  stopTurn,
} from "./support/turns";

const SERVER_URL = TEST_SERVER_URL;
test.skip(!SERVER_URL, "needs TEST_DATABASE_URL (scripts/test.sh starts a PostgreSQL server)");
test.describe.configure({ mode: "serial", timeout: 180_000 });

const KEYS = {
  alice: "alice-multi-instance-key-0001",
  bob: "bob-multi-instance-key-000002",
  carol: "carol-multi-instance-key-0003",
  dave: "dave-multi-instance-key-00004",
  erin: "erin-multi-instance-key-00005",
  frank: "frank-multi-instance-key-0006",
  grace: "grace-multi-instance-key-0007",
};
const RATE = { perMinute: 60, burst: 30 };
/** Open streams per caller, across both instances (studio turns and API streams alike). */
const STREAM_CAP = 2;

function instanceEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    STUDIO_API_KEYS: Object.entries(KEYS)
      .map(([name, key]) => `${name}:${key}`)
      .join(","),
    STUDIO_RATE_LIMIT_PER_MINUTE: String(RATE.perMinute),
    STUDIO_RATE_LIMIT_BURST: String(RATE.burst),
    STUDIO_MAX_STREAMS_PER_KEY: String(STREAM_CAP),
    // Long answers stay in flight for half a minute however fast the machine: the stop, cap
    // and kill specs act on an answer still being generated.
    STUDIO_LOCAL_OUTPUT_TOKENS_PER_SECOND: "2000",
  };
}

function call(
  server: OwnServer,
  key: string,
  route: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Response> {
  return fetch(`${server.baseUrl}${route}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { "x-goog-api-key": key, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

function serviceHash(bytes: Buffer): string {
  return Buffer.from(createHash("sha256").update(bytes).digest("hex"), "utf8").toString("base64");
}

function text(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let index = 0; index < length; index++) bytes[index] = 97 + ((index * 7 + seed) % 26);
  return bytes;
}

async function startUpload(server: OwnServer, key: string, size: number): Promise<string> {
  const response = await fetch(`${server.baseUrl}/upload/v1beta/files`, {
    method: "POST",
    headers: {
      "x-goog-api-key": key,
      "content-type": "application/json",
      "X-Goog-Upload-Protocol": "resumable",
      "X-Goog-Upload-Command": "start",
      "X-Goog-Upload-Header-Content-Length": String(size),
      "X-Goog-Upload-Header-Content-Type": "text/plain",
    },
    body: JSON.stringify({ file: { displayName: "shared" } }),
  });
  expect(response.status).toBe(200);
  const url = new URL(response.headers.get("x-goog-upload-url")!);
  return `${url.pathname}${url.search}`;
}

async function chunk(
  server: OwnServer,
  session: string,
  bytes: Buffer,
  offset: number,
  finalize: boolean,
): Promise<Response> {
  return fetch(`${server.baseUrl}${session}`, {
    method: "POST",
    headers: {
      "X-Goog-Upload-Command": finalize ? "upload, finalize" : "upload",
      "X-Goog-Upload-Offset": String(offset),
    },
    body: new Uint8Array(bytes),
  });
}

async function query(server: OwnServer, session: string): Promise<number> {
  const response = await fetch(`${server.baseUrl}${session}`, {
    method: "POST",
    headers: { "X-Goog-Upload-Command": "query" },
  });
  expect(response.status).toBe(200);
  return Number(response.headers.get("x-goog-upload-size-received"));
}

let databaseUrl: string;
let dataDir: string;
let first: OwnServer;
let second: OwnServer;

test.beforeAll(async () => {
  databaseUrl = await createDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-multi-"));
  // Started at the same moment on an empty database: both run the migrations; one waits.
  [first, second] = await Promise.all([
    startOwnServer({ dataDir, env: instanceEnv(databaseUrl) }),
    startOwnServer({ dataDir, env: instanceEnv(databaseUrl) }),
  ]);
});

test.afterAll(async () => {
  await first?.stop("SIGKILL");
  await second?.stop("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("two instances started together migrate once and both serve", async () => {
  const applied = await sql(databaseUrl, "SELECT version FROM schema_migrations ORDER BY version");
  const versions = applied.rows.map((row: { version: number }) => Number(row.version));
  expect(versions).toEqual([...new Set(versions)]);
  expect(versions[0]).toBe(1);
  expect(fs.existsSync(path.join(dataDir, "genstudio.sqlite"))).toBe(false);
  for (const server of [first, second])
    expect((await call(server, KEYS.alice, "/v1beta/models")).status).toBe(200);
});

test("a file uploaded in chunks to both instances is one file everywhere", async () => {
  const bytes = text(3 * 256 * 1024 + 99, 1);
  const session = await startUpload(first, KEYS.alice, bytes.length);
  const piece = 256 * 1024;
  let answer: Response | undefined;
  for (let offset = 0, index = 0; offset < bytes.length; offset += piece, index++) {
    const end = Math.min(bytes.length, offset + piece);
    answer = await chunk(
      index % 2 ? first : second,
      session,
      bytes.subarray(offset, end),
      offset,
      end === bytes.length,
    );
    expect(answer.status).toBe(200);
  }
  const { file } = (await answer!.json()) as { file: { name: string; sha256Hash: string } };
  expect(file.sha256Hash).toBe(serviceHash(bytes));
  const listed = (await (await call(first, KEYS.alice, "/v1beta/files")).json()) as {
    files: { name: string }[];
  };
  expect(listed.files.map((item) => item.name)).toContain(file.name);
  expect((await call(second, KEYS.bob, `/v1beta/${file.name}`)).status).toBe(403);
  const used = await call(second, KEYS.alice, "/v1beta/models/gemini-2.5-flash:countTokens", {
    body: {
      contents: [{ parts: [{ fileData: { fileUri: file.name, mimeType: "text/plain" } }] }],
    },
  });
  expect(used.status).toBe(200);
  expect(((await used.json()) as { totalTokens: number }).totalTokens).toBeGreaterThan(100);
  expect((await call(first, KEYS.alice, `/v1beta/${file.name}`, { method: "DELETE" })).status).toBe(
    200,
  );
  expect((await call(second, KEYS.alice, `/v1beta/${file.name}`)).status).toBe(403);
});

test("a cache made on one instance is listed, updated, used and deleted on the other", async () => {
  const created = await call(first, KEYS.bob, "/v1beta/cachedContents", {
    body: {
      model: "models/gemini-2.5-flash",
      contents: [
        { role: "user", parts: [{ text: "The harbour log of every ship. ".repeat(400) }] },
      ],
      ttl: "600s",
    },
  });
  expect(created.status).toBe(200);
  const { name } = (await created.json()) as { name: string };
  const listed = (await (await call(second, KEYS.bob, "/v1beta/cachedContents")).json()) as {
    cachedContents: { name: string }[];
  };
  expect(listed.cachedContents.map((item) => item.name)).toContain(name);
  const updated = await call(second, KEYS.bob, `/v1beta/${name}`, {
    method: "PATCH",
    body: { ttl: "1200s" },
  });
  expect(updated.status).toBe(200);
  const counted = await call(second, KEYS.bob, "/v1beta/models/gemini-2.5-flash:countTokens", {
    body: {
      generateContentRequest: { cachedContent: name, contents: [{ parts: [{ text: "Hi" }] }] },
    },
  });
  expect(counted.status).toBe(200);
  expect((await call(second, KEYS.bob, `/v1beta/${name}`, { method: "DELETE" })).status).toBe(200);
  expect((await call(first, KEYS.bob, `/v1beta/${name}`)).status).toBe(403);
});

test("a conversation written on both instances reads whole on either", async () => {
  const created = await call(first, KEYS.carol, "/api/conversations", {
    body: { title: "shared", settings: { model: "models/gemini-2.5-flash" } },
  });
  expect(created.status).toBe(200);
  const { id } = (await created.json()) as { id: string };
  for (let index = 0; index < 4; index++) {
    const answer = await call(
      index % 2 ? first : second,
      KEYS.carol,
      `/api/conversations/${id}/messages`,
      {
        body: {
          messages: [
            {
              id: `m${index}`,
              role: "user",
              content: { role: "user", parts: [{ text: `turn ${index}` }] },
            },
          ],
        },
      },
    );
    expect(answer.status).toBe(200);
  }
  const read = (await (await call(second, KEYS.carol, `/api/conversations/${id}`)).json()) as {
    messages: { id: string }[];
  };
  expect(read.messages.map((message) => message.id)).toEqual(["m0", "m1", "m2", "m3"]);
});

test("a chat answer started on one instance is followed and stopped from the other", async () => {
  const conversationId = `turn-stop-${randomBytes(6).toString("hex")}`;
  const started = await startTurn(first.baseUrl, KEYS.grace, conversationId, "answer-stopped");
  // Instance one generates; its reader keeps reading to the end.
  const ownReader = readTurnEvents(started);
  const joined = await joinTurn(second.baseUrl, KEYS.grace, conversationId, "answer-stopped");
  const seen: number[] = [];
  let stoppedAt = 0;
  const followed = await readTurnEvents(joined, (event) => {
    const answer = eventAnswer(event);
    if ("snapshot" in event) seen.push(answerText(answer).length);
    // Instance two shows what instance one writes as it grows; once it has seen it grow, stop.
    if (seen.length >= 2 && seen.at(-1)! > seen[0]! && !stoppedAt) {
      stoppedAt = seen.at(-1)!;
      void stopTurn(second.baseUrl, KEYS.grace, conversationId, "answer-stopped").then((asked) =>
        expect(asked).toBe(true),
      );
    }
  });
  expect(stoppedAt, `the follower never saw the answer grow: ${seen.join(", ")}`).toBeGreaterThan(
    0,
  );
  const followedAnswer = eventAnswer(followed)!;
  expect("done" in followed!).toBe(true);
  expect(followedAnswer.stopped).toBe(true);
  const own = eventAnswer(await ownReader)!;
  expect(own.stopped).toBe(true);
  // Stopped: far short of the 65,536 tokens asked for, and the same text on both sides.
  expect(own.usageMetadata?.candidatesTokenCount ?? 0).toBeLessThan(65_536);
  expect(answerText(followedAnswer)).toBe(answerText(own));
  const stored = (await (
    await call(first, KEYS.grace, `/api/conversations/${conversationId}`)
  ).json()) as { messages: { id: string; stopped?: boolean; streaming?: boolean }[] };
  const answer = stored.messages.find((message) => message.id === "answer-stopped")!;
  expect(answer.stopped).toBe(true);
  expect(answer.streaming).toBeUndefined();
});

test("a chat answer whose page went away is finished on its instance and read whole from the other", async () => {
  const conversationId = `turn-finish-${randomBytes(6).toString("hex")}`;
  const page = new AbortController();
  const started = await startTurn(first.baseUrl, KEYS.grace, conversationId, "answer-finished", {
    maxOutputTokens: 3000,
    signal: page.signal,
  });
  expect(started.status).toBe(200);
  page.abort(); // the page that sent it goes away at once
  const done = await readTurnEvents(
    await joinTurn(second.baseUrl, KEYS.grace, conversationId, "answer-finished"),
  );
  expect(done && "done" in done).toBe(true);
  const answer = eventAnswer(done)!;
  expect(answer.stopped).toBeUndefined();
  expect(answer.usageMetadata?.candidatesTokenCount).toBe(3000);
  expect(answer.candidates?.[0]?.finishReason).toBe("MAX_TOKENS");
  const stored = (await (
    await call(second, KEYS.grace, `/api/conversations/${conversationId}`)
  ).json()) as { messages: { id: string; content: { parts: { text?: string }[] } }[] };
  expect(
    answerText(stored.messages.find((message) => message.id === "answer-finished") as never),
  ).toBe(answerText(answer));
});

test("a chat answer reopened on the other instance mid-stream shows new text at once, and goes back to batched writes once no one follows", async () => {
  // A third instance at the service's pace (200 tokens, about 900 characters, a second): left
  // alone, its answer is written when 16 KiB have arrived (about 18 s) or 8 s went by.
  const paced = await startOwnServer({
    dataDir,
    env: { ...instanceEnv(databaseUrl), STUDIO_LOCAL_OUTPUT_TOKENS_PER_SECOND: "200" },
  });
  // Counts the writes of an answer's text (a follower's mark or a lease alone writes none).
  await sql(
    databaseUrl,
    `CREATE TABLE answer_text_writes (id TEXT NOT NULL);
     CREATE FUNCTION count_answer_text_write() RETURNS trigger AS $$
       BEGIN INSERT INTO answer_text_writes VALUES (NEW.id); RETURN NEW; END $$ LANGUAGE plpgsql;
     CREATE TRIGGER count_answer_text_writes AFTER UPDATE ON conversation_messages FOR EACH ROW
       WHEN (OLD.message_json IS DISTINCT FROM NEW.message_json)
       EXECUTE FUNCTION count_answer_text_write()`,
  );
  const textWrites = async () =>
    Number(
      (
        await sql(
          databaseUrl,
          "SELECT COUNT(*) AS n FROM answer_text_writes WHERE id = 'answer-followed'",
        )
      ).rows[0].n,
    );
  const textWritesDuring = async (milliseconds: number) => {
    const before = await textWrites();
    await new Promise((resolve) => setTimeout(resolve, milliseconds));
    return (await textWrites()) - before;
  };
  const conversationId = `turn-follow-${randomBytes(6).toString("hex")}`;
  try {
    const started = await startTurn(paced.baseUrl, KEYS.carol, conversationId, "answer-followed");
    expect(started.status).toBe(200);
    const ownReader = readTurnEvents(started);
    // Nobody follows yet: nothing of the answer is written.
    expect(await textWritesDuring(2000)).toBe(0);

    const leaving = new AbortController();
    const joined = await joinTurn(
      second.baseUrl,
      KEYS.carol,
      conversationId,
      "answer-followed",
      leaving.signal,
    );
    const joinedAt = performance.now();
    // Four seconds of following, all before the answer's first batched write (8 s after it began).
    const window = setTimeout(() => leaving.abort(), 4000);
    const lengths: number[] = [];
    let firstNewMs = 0;
    await readTurnEvents(joined, (event) => {
      if (!("snapshot" in event)) return;
      lengths.push(answerText(event.snapshot).length);
      if (!firstNewMs && lengths.at(-1)! > lengths[0]!) firstNewMs = performance.now() - joinedAt;
    }).catch((error: unknown) => {
      if (!leaving.signal.aborted) throw error;
    });
    clearTimeout(window);
    leaving.abort();
    expect(firstNewMs, `no new text in 4 s: ${lengths.join(", ")}`).toBeGreaterThan(0);
    // Text kept coming while followed, in writes of its own: one per 200 ms (plus the few at
    // once when the follower arrived), not one per chunk.
    expect(lengths.length).toBeGreaterThanOrEqual(4);
    for (let index = 1; index < lengths.length; index++)
      expect(lengths[index]).toBeGreaterThan(lengths[index - 1]!);
    const followedMs = performance.now() - joinedAt;
    expect(await textWrites()).toBeLessThanOrEqual(Math.ceil(followedMs / 200) + 5);
    test.info().annotations.push({
      type: "first new text on the other instance",
      description: `${Math.round(firstNewMs)} ms, ${lengths.length} snapshots in ${Math.round(followedMs)} ms`,
    });

    // The follower left: once its mark runs out (3 s), the answer goes back to batched writes.
    await expect.poll(() => textWritesDuring(2500), { timeout: 30_000, intervals: [0] }).toBe(0);
    expect(await stopTurn(second.baseUrl, KEYS.carol, conversationId, "answer-followed")).toBe(
      true,
    );
    const own = eventAnswer(await ownReader)!;
    expect(own.stopped).toBe(true);
    expect(answerText(own).length).toBeGreaterThan(lengths.at(-1)!);
  } finally {
    // Killed, not drained: a failed step may leave its long answer running for minutes.
    await paced.stop("SIGKILL");
    await sql(
      databaseUrl,
      "DROP TRIGGER count_answer_text_writes ON conversation_messages; DROP FUNCTION count_answer_text_write(); DROP TABLE answer_text_writes",
    );
  }
});

test("the open-streams cap holds across both instances, for studio turns and API streams", async () => {
  const conversation = () => `turn-cap-${randomBytes(6).toString("hex")}`;
  const held = [conversation(), conversation()];
  // Two long answers on instance one take both of erin's slots (each answers its first event
  // once its slot is held).
  const readers = await Promise.all(
    held.map(async (id) => {
      const response = await startTurn(first.baseUrl, KEYS.erin, id, "long");
      expect(response.status).toBe(200);
      return response;
    }),
  );
  const third = await startTurn(second.baseUrl, KEYS.erin, conversation(), "third", {
    maxOutputTokens: 10,
  });
  expect(third.status).toBe(429);
  const refused = (await third.json()) as { error: { status: string; message: string } };
  expect(refused.error.status).toBe("RESOURCE_EXHAUSTED");
  expect(refused.error.message).toContain("open streams");
  const stream = await call(
    second,
    KEYS.erin,
    "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    { body: { contents: [{ parts: [{ text: "Hi" }] }] } },
  );
  expect(stream.status).toBe(429);
  // Another caller is not affected.
  const other = await call(
    second,
    KEYS.frank,
    "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    { body: { contents: [{ parts: [{ text: "Hi" }] }] } },
  );
  expect(other.status).toBe(200);
  await other.text();
  // Both long answers were still running when the third was refused: the refusal was the cap.
  for (const id of held) expect(await stopTurn(second.baseUrl, KEYS.erin, id, "long")).toBe(true);
  await Promise.all(readers.map((response) => readTurnEvents(response)));
  // The slots are free again, whichever instance asks.
  await expect
    .poll(
      async () => {
        const response = await call(
          second,
          KEYS.erin,
          "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
          { body: { contents: [{ parts: [{ text: "Hi" }] }] } },
        );
        await response.text();
        return response.status;
      },
      { timeout: 15_000 },
    )
    .toBe(200);
});

test("kill -9 of the instance generating a chat answer: the other reads it as interrupted, partial text kept", async () => {
  const conversationId = `turn-killed-${randomBytes(6).toString("hex")}`;
  const started = await startTurn(second.baseUrl, KEYS.frank, conversationId, "answer-killed");
  expect(started.status).toBe(200);
  // Wait until instance one sees progress written by instance two, then kill instance two.
  const joined = await joinTurn(first.baseUrl, KEYS.frank, conversationId, "answer-killed");
  let partial = 0;
  const follower = readTurnEvents(joined, (event) => {
    if ("snapshot" in event && !partial) {
      const length = answerText(event.snapshot).length;
      if (length > 0) {
        partial = length;
        void second.stop("SIGKILL");
      }
    }
  });
  const done = await follower;
  expect(partial).toBeGreaterThan(0);
  expect(done && "done" in done).toBe(true);
  const answer = eventAnswer(done)!;
  expect(answer.interrupted).toBe(true);
  expect(answer.streaming).toBeUndefined();
  expect(answerText(answer).length).toBeGreaterThanOrEqual(partial);
  const stored = (await (
    await call(first, KEYS.frank, `/api/conversations/${conversationId}`)
  ).json()) as { messages: { id: string; interrupted?: boolean }[] };
  expect(stored.messages.find((message) => message.id === "answer-killed")!.interrupted).toBe(true);
  second = await startOwnServer({ dataDir, env: instanceEnv(databaseUrl) });
});

test("the rate limit is one budget across both instances, not one each", async () => {
  const statuses: number[] = [];
  for (let index = 0; index < RATE.burst * 2; index++) {
    const response = await call(index % 2 ? first : second, KEYS.dave, "/v1beta/models");
    statuses.push(response.status);
    if (response.status === 429)
      expect(((await response.json()) as { error: { status: string } }).error.status).toBe(
        "RESOURCE_EXHAUSTED",
      );
  }
  const allowed = statuses.filter((status) => status === 200).length;
  // The burst, plus the few tokens that refill (1 a second) while the requests run.
  expect(allowed).toBeGreaterThanOrEqual(RATE.burst);
  expect(allowed).toBeLessThan(RATE.burst + 10);
  expect(statuses.filter((status) => status === 429).length).toBe(statuses.length - allowed);
});

test("kill -9 of one instance mid-chunk: the other serves on and the upload resumes there", async () => {
  const bytes = text(2 * 1024 * 1024, 5);
  const session = await startUpload(first, KEYS.alice, bytes.length);
  const half = 1024 * 1024;
  expect((await chunk(first, session, bytes.subarray(0, half), 0, false)).status).toBe(200);
  // The second half trickles to the first instance, which is killed while receiving it.
  const trickle = new Promise<void>((resolve) => {
    const request = http.request(`${first.baseUrl}${session}`, {
      method: "POST",
      headers: {
        "X-Goog-Upload-Command": "upload, finalize",
        "X-Goog-Upload-Offset": String(half),
        "Content-Length": String(half),
      },
    });
    request.on("error", () => resolve());
    request.on("response", () => resolve());
    let sent = 0;
    const step = () => {
      if (sent >= 256 * 1024 || request.destroyed) return;
      request.write(bytes.subarray(half + sent, half + sent + 32 * 1024));
      sent += 32 * 1024;
      setTimeout(step, 20);
    };
    step();
  });
  await new Promise((resolve) => setTimeout(resolve, 250));
  await first.stop("SIGKILL");
  await trickle;
  // The survivor knows what was acknowledged, and takes the rest.
  expect((await call(second, KEYS.alice, "/v1beta/models")).status).toBe(200);
  expect(await query(second, session)).toBe(half);
  const finished = await chunk(second, session, bytes.subarray(half), half, true);
  expect(finished.status).toBe(200);
  const { file } = (await finished.json()) as { file: { sha256Hash: string; sizeBytes: string } };
  expect(file.sizeBytes).toBe(String(bytes.length));
  expect(file.sha256Hash).toBe(serviceHash(bytes));
  first = await startOwnServer({ dataDir, env: instanceEnv(databaseUrl) });
});

test("a PostgreSQL restart answers 503 UNAVAILABLE while it is down, then recovers by itself", async () => {
  const directory = process.env.TEST_POSTGRES_DIR;
  test.skip(!directory, "needs the test script's own PostgreSQL server to restart");
  const server = (command: "pause" | "resume") =>
    execFileSync("bash", ["scripts/test-postgres.sh", command, directory!], { stdio: "pipe" });
  server("pause");
  try {
    const down = await call(first, KEYS.alice, "/v1beta/models");
    expect(down.status).toBe(503);
    expect(((await down.json()) as { error: { status: string } }).error.status).toBe("UNAVAILABLE");
    expect((await call(second, KEYS.carol, "/api/conversations")).status).toBe(503);
  } finally {
    server("resume");
  }
  for (const server of [first, second]) {
    await expect
      .poll(async () => (await call(server, KEYS.bob, "/v1beta/models")).status, {
        timeout: 30_000,
      })
      .toBe(200);
  }
});

test("a database that cannot be used stops the start with a message saying why", async () => {
  const closed = new URL(SERVER_URL!);
  closed.port = "9";
  const unreachable = await startUntilExit({
    ...instanceEnv(closed.toString()),
    DATA_DIR: dataDir,
  });
  expect(unreachable.code).toBe(1);
  expect(unreachable.output).toContain("it cannot be reached");
  expect(unreachable.output).not.toContain("password");

  const wrongScheme = await startUntilExit({
    ...instanceEnv("mysql://x@127.0.0.1/db"),
    DATA_DIR: dataDir,
  });
  expect(wrongScheme.code).toBe(1);
  expect(wrongScheme.output).toContain("DATABASE_URL");

  const newer = await createDatabase();
  await sql(
    newer,
    "CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL); INSERT INTO schema_migrations VALUES (999, 'from the future', 'now')",
  );
  const ahead = await startUntilExit({ ...instanceEnv(newer), DATA_DIR: dataDir });
  expect(ahead.code).toBe(1);
  expect(ahead.output).toContain("newer than this build");

  const role = `reader_${randomBytes(4).toString("hex")}`;
  await sql(
    databaseUrl,
    `CREATE ROLE ${role} LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${role}`,
  );
  const readOnly = new URL(databaseUrl);
  readOnly.username = role;
  const reader = await startUntilExit({ ...instanceEnv(readOnly.toString()), DATA_DIR: dataDir });
  expect(reader.code).toBe(1);
  expect(reader.output).toContain("may not read and write every table");
});
