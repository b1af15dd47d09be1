/**
 * Property-based fuzzing of every endpoint (fast-check), against a production server of this
 * spec's own (fresh DATA_DIR, two studio keys, rate limit off so the fuzzer is not answered
 * 429 throughout): generated valid and invalid requests never get a 5xx, never hang, and
 * every refusal is the service's error body with the status matching its code; resumable
 * upload sessions follow a model of the protocol; the server is healthy afterwards and logged
 * no failure of its own. A bounded run here; the long run is `npm run fuzz -- --runs N`.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { errorBodyProblems } from "./support/fuzz/oracle.mjs";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import { assertFuzz, healthProblems, logFailures } from "./support/fuzz/run.mjs";
import { buildWorld, type FuzzWorld } from "./support/fuzz/world.mjs";

test.describe.configure({ mode: "serial", timeout: 180_000 });

const KEYS = { owner: "fuzz-owner-key-0123456789", other: "fuzz-other-key-0123456789" };
const ACCESS_CODE = "fuzz-access-code";
/** Requests of the bounded run and its time budget (whichever ends first); raise both by hand. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 4000);
const TIME_LIMIT_MS = Number(process.env.FUZZ_TIME_LIMIT_MS ?? 40_000);

let server: OwnServer;
let world: FuzzWorld;

test.beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-fuzz-spec-"));
  server = await startOwnServer({
    dataDir,
    env: {
      STUDIO_API_KEYS: `owner:${KEYS.owner},other:${KEYS.other}`,
      STUDIO_ACCESS_CODE: ACCESS_CODE,
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
    },
  });
  world = await buildWorld(server.baseUrl, { keys: KEYS, accessCode: ACCESS_CODE });
});

test.afterAll(async () => {
  if (!server) return;
  await server.stop("SIGTERM");
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

test("every endpoint answers generated requests: no 5xx, no hang, the error body with a matching status", async () => {
  // A hang is no complete answer within 30 s: generated requests may ask for answers of up to
  // 65,536 tokens per candidate (seconds each; the slowest seen was 8.3 s alone), and a busy
  // machine multiplies that.
  const report = await assertFuzz({
    baseUrl: server.baseUrl,
    world,
    runs: RUNS,
    timeLimitMs: TIME_LIMIT_MS,
    concurrency: 4,
    timeoutMs: 30_000,
  });
  console.log(
    `fuzz: ${report.sent} requests in ${Math.round(report.ms / 1000)} s, statuses ${JSON.stringify(report.statuses)}, ` +
      `5xx ${report.fiveHundreds}, hangs ${report.hangs}, dropped ${report.dropped} (stale keep-alive retries ${report.staleConnectionRetries}), slowest ${report.slowest.ms} ms (${report.slowest.label})`,
  );
  expect(report.problems).toEqual([]);
  expect(report.fiveHundreds).toBe(0);
  expect(report.hangs).toBe(0);
  expect(report.dropped).toBe(0);
  expect(report.clientRefused).toBe(0);
  // The budget must leave room for a run worth the name, and every endpoint must have been hit.
  expect(report.sent).toBeGreaterThanOrEqual(400);
  for (const label of [
    "models.list",
    "models.get",
    "models.countTokens",
    "models.generateContent",
    "models.streamGenerateContent",
    "files.list",
    "files.get",
    "files.delete",
    "cachedContents.create",
    "cachedContents.list",
    "cachedContents.get",
    "cachedContents.patch",
    "cachedContents.delete",
    "upload.start",
    "upload.session",
    "session.post",
    "session.delete",
    "session.get",
    "conversations.list",
    "conversations.create",
    "conversations.get",
    "conversations.patch",
    "conversations.delete",
    "conversations.messages",
    "interactions.create",
    "interactions.get",
    "interactions.cancel",
    "interactions.delete",
  ]) {
    expect(Object.keys(report.byEndpoint), `no request reached ${label}`).toContain(label);
  }
  // Generated requests must also succeed sometimes, or they only ever test the first check.
  expect(report.statuses["200"] ?? 0).toBeGreaterThan(report.sent / 20);
});

// ------------------------------------------------------------------ upload sessions as a model

interface UploadModel {
  declared: number;
  received: number;
  state: "active" | "final" | "cancelled";
}
interface UploadReal {
  url: string;
  fileName?: string;
  log: string[];
}

/** The byte at `index` of every upload of this test: any wrong offset shows in the hash. */
function pattern(start: number, length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let index = 0; index < length; index++) bytes[index] = ((start + index) * 31 + 7) & 0xff;
  return bytes;
}

function serviceHash(bytes: Uint8Array): string {
  return Buffer.from(createHash("sha256").update(bytes).digest("hex"), "utf8").toString("base64");
}

async function sessionCall(
  real: UploadReal,
  method: string,
  headers: Record<string, string>,
  body?: Uint8Array<ArrayBuffer>,
) {
  const response = await fetch(real.url, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  real.log.push(
    `${method} ${JSON.stringify(headers)} ${body?.length ?? 0} bytes -> ${response.status} ${text.slice(0, 160)}`,
  );
  return { status: response.status, headers: response.headers, text };
}

function expectRefused(answer: { status: number; text: string }, status = 400): void {
  expect(answer.status).toBe(status);
  expect(errorBodyProblems(answer.text, answer.status)).toEqual([]);
}

type Spelling = "Goog" | "Svc";
type LengthKind = "rest" | "part" | "over" | "zero";

class ChunkCommand implements fc.AsyncCommand<UploadModel, UploadReal> {
  constructor(
    readonly offsetDelta: number,
    readonly lengthKind: LengthKind,
    readonly fraction: number,
    readonly finalize: boolean,
    readonly method: "POST" | "PUT",
    readonly spelling: Spelling,
  ) {}
  check = () => true;
  async run(model: UploadModel, real: UploadReal): Promise<void> {
    const remaining = model.declared - model.received;
    const offset = model.received + this.offsetDelta;
    const length =
      this.lengthKind === "rest"
        ? remaining
        : this.lengthKind === "zero"
          ? 0
          : this.lengthKind === "over"
            ? remaining + 1 + Math.floor(this.fraction * 100)
            : Math.floor(this.fraction * remaining);
    const answer = await sessionCall(
      real,
      this.method,
      {
        [`X-${this.spelling}-Upload-Command`]: this.finalize ? "upload, finalize" : "upload",
        [`X-${this.spelling}-Upload-Offset`]: String(offset),
      },
      pattern(Math.max(0, offset), length),
    );
    if (model.state !== "active" || offset !== model.received || length > remaining)
      return expectRefused(answer);
    model.received += length;
    if (!this.finalize) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-goog-upload-status")).toBe("active");
      expect(Number(answer.headers.get("x-goog-upload-size-received"))).toBe(model.received);
      return;
    }
    if (model.received !== model.declared) return expectRefused(answer);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-goog-upload-status")).toBe("final");
    const file = (
      JSON.parse(answer.text) as { file: { name: string; sizeBytes: string; sha256Hash: string } }
    ).file;
    expect(file.sizeBytes).toBe(String(model.declared));
    expect(file.sha256Hash).toBe(serviceHash(pattern(0, model.declared)));
    model.state = "final";
    real.fileName = file.name;
  }
  toString = () =>
    `chunk(offset${this.offsetDelta >= 0 ? "+" : ""}${this.offsetDelta}, ${this.lengthKind}${this.lengthKind === "part" ? ` ${this.fraction.toFixed(2)}` : ""}, ${this.finalize ? "finalize, " : ""}${this.method}, ${this.spelling})`;
}

class FinalizeCommand implements fc.AsyncCommand<UploadModel, UploadReal> {
  check = () => true;
  async run(model: UploadModel, real: UploadReal): Promise<void> {
    const answer = await sessionCall(real, "POST", {
      "X-Goog-Upload-Command": "finalize",
      "X-Goog-Upload-Offset": String(model.received),
    });
    if (model.state !== "active" || model.received !== model.declared) return expectRefused(answer);
    expect(answer.status).toBe(200);
    real.fileName = (JSON.parse(answer.text) as { file: { name: string } }).file.name;
    model.state = "final";
  }
  toString = () => "finalize";
}

class QueryCommand implements fc.AsyncCommand<UploadModel, UploadReal> {
  constructor(readonly spelling: Spelling) {}
  check = () => true;
  async run(model: UploadModel, real: UploadReal): Promise<void> {
    const answer = await sessionCall(real, "POST", {
      [`X-${this.spelling}-Upload-Command`]: "query",
    });
    if (model.state === "cancelled") return expectRefused(answer);
    expect(answer.status).toBe(200);
    expect(answer.headers.get(`x-${this.spelling.toLowerCase()}-upload-status`)).toBe(model.state);
    expect(Number(answer.headers.get("x-goog-upload-size-received"))).toBe(
      model.state === "final" ? model.declared : model.received,
    );
  }
  toString = () => `query(${this.spelling})`;
}

class CancelCommand implements fc.AsyncCommand<UploadModel, UploadReal> {
  check = () => true;
  async run(model: UploadModel, real: UploadReal): Promise<void> {
    const answer = await sessionCall(real, "POST", { "X-Goog-Upload-Command": "cancel" });
    if (model.state !== "active") return expectRefused(answer);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-goog-upload-status")).toBe("cancelled");
    model.state = "cancelled";
  }
  toString = () => "cancel";
}

const spelling = fc.constantFrom<Spelling>("Goog", "Svc");
const uploadCommands = [
  fc
    .record({
      offsetDelta: fc.oneof(
        { arbitrary: fc.constant(0), weight: 8 },
        { arbitrary: fc.constantFrom(-1, 1, -1000, 4096), weight: 1 },
      ),
      lengthKind: fc.constantFrom<LengthKind>("rest", "part", "part", "part", "over", "zero"),
      fraction: fc.double({ min: 0, max: 1, noNaN: true }),
      finalize: fc.boolean(),
      method: fc.constantFrom<"POST" | "PUT">("POST", "PUT"),
      spelling,
    })
    .map(
      (draw) =>
        new ChunkCommand(
          draw.offsetDelta,
          draw.lengthKind,
          draw.fraction,
          draw.finalize,
          draw.method,
          draw.spelling,
        ),
    ),
  fc.constant(new FinalizeCommand()),
  spelling.map((value) => new QueryCommand(value)),
  fc.constant(new CancelCommand()),
];

test("resumable upload sessions follow the protocol's model: offsets, sizes, finalize, query and cancel (fast-check commands)", async () => {
  let sequences = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 150_000 }),
      fc.commands(uploadCommands, { maxCommands: 12 }),
      async (declared, commands) => {
        sequences++;
        const started = await fetch(`${server.baseUrl}/upload/v1beta/files`, {
          method: "POST",
          headers: {
            "x-goog-api-key": KEYS.owner,
            "X-Goog-Upload-Protocol": "resumable",
            "X-Goog-Upload-Command": "start",
            "X-Goog-Upload-Header-Content-Length": String(declared),
            "X-Goog-Upload-Header-Content-Type": "application/octet-stream",
            "content-type": "application/json",
          },
          body: JSON.stringify({ file: { displayName: "model-based" } }),
        });
        expect(started.status).toBe(200);
        const url = new URL(started.headers.get("x-goog-upload-url")!);
        const real: UploadReal = { url: `${server.baseUrl}${url.pathname}${url.search}`, log: [] };
        const model: UploadModel = { declared, received: 0, state: "active" };
        try {
          await fc.asyncModelRun(() => ({ model, real }), commands);
          if (model.state === "final") {
            // The bytes on disk are exactly the bytes sent at the right offsets.
            const onDisk = fs.readFileSync(
              path.join(server.dataDir, "files", real.fileName!.slice("files/".length)),
            );
            expect(Buffer.compare(onDisk, Buffer.from(pattern(0, declared)))).toBe(0);
          }
        } catch (error) {
          throw new Error(`${(error as Error).message}\nexchanges:\n${real.log.join("\n")}`);
        }
      },
    ),
    { numRuns: Number(process.env.FUZZ_UPLOAD_RUNS ?? 30) },
  );
  expect(sequences).toBeGreaterThanOrEqual(Number(process.env.FUZZ_UPLOAD_RUNS ?? 30));
});

test("the server is healthy after the fuzzing and logged no failure of its own", async () => {
  expect(server.alive()).toBe(true);
  expect(await healthProblems(server.baseUrl, KEYS.owner)).toEqual([]);
  expect(logFailures(server.log())).toEqual([]);
});
