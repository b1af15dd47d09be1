/**
 * Several instances, one service: two production servers on one PostgreSQL database and one
 * shared DATA_DIR (the README's "Several instances" commands). Files, uploads, caches and
 * conversations made on one are used on the other; the rate limit is one budget across both;
 * kill -9 of one loses nothing acknowledged and its upload resumes on the other; a PostgreSQL
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
import pg from "pg";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import { startUntilExit } from "./support/start-until-exit";

const SERVER_URL = process.env.TEST_DATABASE_URL;
test.skip(!SERVER_URL, "needs TEST_DATABASE_URL (scripts/test.sh starts a PostgreSQL server)");
test.describe.configure({ mode: "serial", timeout: 180_000 });

const KEYS = {
  alice: "alice-multi-instance-key-0001",
  bob: "bob-multi-instance-key-000002",
  carol: "carol-multi-instance-key-0003",
  dave: "dave-multi-instance-key-00004",
};
const RATE = { perMinute: 60, burst: 30 };

/** A fresh database on the test server, and its URL. */
async function createDatabase(): Promise<string> {
  const name = `genstudio_multi_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(SERVER_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function sql(databaseUrl: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

function instanceEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    STUDIO_API_KEYS: Object.entries(KEYS)
      .map(([name, key]) => `${name}:${key}`)
      .join(","),
    STUDIO_RATE_LIMIT_PER_MINUTE: String(RATE.perMinute),
    STUDIO_RATE_LIMIT_BURST: String(RATE.burst),
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
