/**
 * Batch mode through the official SDK (`ai.batches`, `ai.files.upload` / `download`), in
 * both modes: the local engine, and a gateway in front of a local engine. Two studio keys
 * per server check ownership; raw calls check the error bodies of bad input. The last test
 * kills a server of its own in the middle of a batch and checks it finishes after a restart.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { GoogleGenAI, type BatchJob } from "@google/genai";
import { GoogleGenAI as GoogleGenAI3 } from "google-genai-3";
import { startOwnServer } from "./support/fuzz/own-server.mjs";
import { api } from "./support/api";
import {
  DEVELOPMENT_KEY,
  GATEWAY_KEYS,
  STUDIO_KEYS,
  gatewayServer,
  keyedServer,
  localServer,
  type ServerInfo,
} from "./support/servers";

const MODEL = "gemini-2.5-flash";
const QUICK = { maxOutputTokens: 24, thinkingConfig: { thinkingBudget: 0 } };
const ENDED = new Set([
  "JOB_STATE_SUCCEEDED",
  "JOB_STATE_FAILED",
  "JOB_STATE_CANCELLED",
  "JOB_STATE_EXPIRED",
]);

/** One line of a batch's results file. */
interface ResultLine {
  key?: string;
  response?: { candidates?: { content?: { parts?: { text?: string }[] } }[] };
  error?: { code: number; message: string };
}

interface ErrorBody {
  error: { code: number; message: string; status: string; details?: unknown[] };
}

const MODES: { name: string; server: ServerInfo; alice: string; bob: string }[] = [
  { name: "local engine", server: keyedServer, alice: STUDIO_KEYS.alice, bob: STUDIO_KEYS.bob },
  { name: "gateway", server: gatewayServer, alice: GATEWAY_KEYS.alice, bob: GATEWAY_KEYS.bob },
];

function client(server: ServerInfo, apiKey: string): GoogleGenAI {
  return new GoogleGenAI({ apiKey, httpOptions: { baseUrl: server.baseUrl } });
}

async function ended(ai: GoogleGenAI, name: string): Promise<BatchJob> {
  for (let attempt = 0; attempt < 1200; attempt++) {
    const job = await ai.batches.get({ name });
    if (ENDED.has(job.state ?? "")) return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} did not end`);
}

function textOf(response: { candidates?: { content?: { parts?: { text?: string }[] } }[] }) {
  return (response.candidates?.[0]?.content?.parts ?? []).map((part) => part.text ?? "").join("");
}

function jsonlFile(lines: unknown[]): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-batch-")), "in.jsonl");
  fs.writeFileSync(file, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  return file;
}

for (const mode of MODES) {
  test.describe(`batches through the official SDK: ${mode.name}`, () => {
    test("inline requests: create, poll, read the results, list, delete", async () => {
      const ai = client(mode.server, mode.alice);
      const job = await ai.batches.create({
        model: MODEL,
        src: [
          {
            contents: [{ role: "user", parts: [{ text: "Tell me a one-sentence joke." }] }],
            metadata: { key: "joke" },
            config: { ...QUICK, systemInstruction: "Be brief." },
          },
          {
            contents: [{ role: "user", parts: [{ text: "Why is the sky blue?" }] }],
            config: QUICK,
          },
        ],
        config: { displayName: "inlined-requests-job-1" },
      });
      expect(job.name).toMatch(/^batches\/[a-z0-9]+$/);
      expect(job).toMatchObject({
        displayName: "inlined-requests-job-1",
        state: "JOB_STATE_PENDING",
        model: `models/${MODEL}`,
      });

      const done = await ended(ai, job.name!);
      expect(done.state).toBe("JOB_STATE_SUCCEEDED");
      expect(Date.parse(done.endTime!)).toBeGreaterThanOrEqual(Date.parse(done.createTime!));
      const results = done.dest!.inlinedResponses!;
      expect(results).toHaveLength(2);
      expect(results[0]!.metadata).toEqual({ key: "joke" });
      for (const result of results) {
        expect(textOf(result.response!)).not.toBe("");
        expect(result.response!.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
      }

      const listed: string[] = [];
      for await (const item of await ai.batches.list({ config: { pageSize: 1 } }))
        listed.push(item.name!);
      expect(listed).toContain(job.name);

      await ai.batches.delete({ name: job.name! });
      await expect(ai.batches.get({ name: job.name! })).rejects.toMatchObject({ status: 404 });
    });

    test("a JSONL file: upload, run, download the results file", async () => {
      const ai = client(mode.server, mode.alice);
      const file = jsonlFile([
        {
          key: "request-1",
          request: {
            contents: [{ parts: [{ text: "Describe photosynthesis." }] }],
            generation_config: {
              temperature: 0.7,
              max_output_tokens: 24,
              thinking_config: { thinking_budget: 0 },
            },
          },
        },
        {
          key: "request-2",
          request: {
            contents: [{ parts: [{ text: "What is in a Margherita pizza?" }] }],
            generationConfig: QUICK,
          },
        },
        { key: "request-3", request: { contents: [{ parts: [{ txt: "misspelt" }] }] } },
      ]);
      // The batch guide uploads its input with the bare type "jsonl".
      const uploaded = await ai.files.upload({
        file,
        config: { mimeType: "jsonl", displayName: "my-batch-requests" },
      });
      expect(uploaded.state).toBe("ACTIVE");
      const job = await ai.batches.create({
        model: MODEL,
        src: uploaded.name!,
        config: { displayName: "file-upload-job-1" },
      });
      const done = await ended(ai, job.name!);
      expect(done.state).toBe("JOB_STATE_SUCCEEDED");
      const resultsName = done.dest!.fileName!;
      expect(resultsName).toBe(`files/batch-${job.name!.slice("batches/".length)}`);

      const resultsFile = await ai.files.get({ name: resultsName });
      expect(resultsFile).toMatchObject({
        source: "GENERATED",
        state: "ACTIVE",
        mimeType: "application/jsonl",
      });
      expect(resultsFile.downloadUri).toBe(
        `${mode.server.baseUrl}/download/v1beta/${resultsName}:download?alt=media`,
      );

      const downloadPath = path.join(path.dirname(file), "results.jsonl");
      await ai.files.download({ file: resultsName, downloadPath });
      await expect
        .poll(() => fs.existsSync(downloadPath) && fs.statSync(downloadPath).size)
        .toBeGreaterThan(0);
      await expect.poll(() => fs.readFileSync(downloadPath, "utf8").endsWith("\n")).toBe(true);
      const text = fs.readFileSync(downloadPath, "utf8");
      const lines = text
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as ResultLine);
      expect(lines.map((line) => line.key)).toEqual(["request-1", "request-2", "request-3"]);
      expect(textOf(lines[0]!.response!)).not.toBe("");
      expect(lines[2]!.error?.code).toBe(3);
      expect(lines[2]!.error?.message).toContain('Unknown name "txt"');

      const raw = await fetch(resultsFile.downloadUri!, {
        headers: { "x-goog-api-key": mode.alice },
      });
      expect(raw.status).toBe(200);
      expect(raw.headers.get("content-type")).toBe("application/jsonl");
      expect(await raw.text()).toBe(text);
    });

    test("cancel: the batch ends CANCELLED with the service's error", async () => {
      const ai = client(mode.server, mode.alice);
      const job = await ai.batches.create({
        model: MODEL,
        src: Array.from({ length: 300 }, (_, index) => ({
          contents: [{ role: "user", parts: [{ text: `Tell a long story number ${index}.` }] }],
          config: { maxOutputTokens: 400, thinkingConfig: { thinkingBudget: 0 } },
        })),
      });
      await ai.batches.cancel({ name: job.name! });
      const cancelled = await ended(ai, job.name!);
      expect(cancelled.state).toBe("JOB_STATE_CANCELLED");
      expect(cancelled.dest).toBeUndefined();
      // The SDKs do not map the operation's error; it is on the wire.
      const raw = await api(`/v1beta/${job.name}`, { server: mode.server, key: mode.alice });
      expect(raw.body).toMatchObject({
        done: true,
        error: { code: 13, message: "Batch was cancelled." },
        metadata: { state: "BATCH_STATE_CANCELLED" },
      });
      await ai.batches.delete({ name: job.name! });
    });

    test("ownership: another key never sees, reads, cancels, deletes or uses a batch or its files", async () => {
      const alice = client(mode.server, mode.alice);
      const bob = client(mode.server, mode.bob);
      const uploaded = await alice.files.upload({
        file: jsonlFile([
          {
            key: "a",
            request: { contents: [{ parts: [{ text: "Hello" }] }], generationConfig: QUICK },
          },
        ]),
        config: { mimeType: "application/jsonl" },
      });
      const job = await alice.batches.create({ model: MODEL, src: uploaded.name! });
      await expect(bob.batches.get({ name: job.name! })).rejects.toMatchObject({ status: 404 });
      await expect(bob.batches.cancel({ name: job.name! })).rejects.toMatchObject({ status: 404 });
      await expect(bob.batches.delete({ name: job.name! })).rejects.toMatchObject({ status: 404 });
      await expect(bob.batches.create({ model: MODEL, src: uploaded.name! })).rejects.toMatchObject(
        { status: 403 },
      );
      const bobs: string[] = [];
      for await (const item of await bob.batches.list()) bobs.push(item.name!);
      expect(bobs).not.toContain(job.name);

      const done = await ended(alice, job.name!);
      const results = done.dest!.fileName!;
      const stolen = await api(`/download/v1beta/${results}:download?alt=media`, {
        server: mode.server,
        key: mode.bob,
      });
      expect(stolen.status).toBe(403);
      expect((stolen.body as ErrorBody).error.status).toBe("PERMISSION_DENIED");
      await expect(bob.files.get({ name: results })).rejects.toMatchObject({ status: 403 });
      // Alice's batch is untouched by all of it.
      expect((await alice.batches.get({ name: job.name! })).state).toBe("JOB_STATE_SUCCEEDED");
    });

    test("bad input: the service's error bodies, with the field named, never a 5xx", async () => {
      const call = (pathname: string, options: { method?: string; body?: unknown } = {}) =>
        api(pathname, { ...options, server: mode.server, key: mode.alice });
      const expectError = async (
        response: Promise<Awaited<ReturnType<typeof api>>>,
        status: number,
        rpcStatus: string,
        words: string,
      ) => {
        const answer = await response;
        expect(answer.status, answer.text).toBe(status);
        expect(answer.headers.get("content-type")).toContain("application/json");
        const { error } = answer.body as ErrorBody;
        expect(error.status).toBe(rpcStatus);
        expect(error.message).toContain(words);
      };
      const create = (body: unknown) =>
        call(`/v1beta/models/${MODEL}:batchGenerateContent`, { method: "POST", body });

      await expectError(
        create({
          batch: {
            input_config: {
              requests: { requests: [{ request: { contents: [{ parts: [{ txt: "x" }] }] } }] },
            },
          },
        }),
        400,
        "INVALID_ARGUMENT",
        "batch.input_config.requests.requests[0].request.contents[0].parts[0]",
      );
      await expectError(
        create({ batch: { input_config: {} } }),
        400,
        "INVALID_ARGUMENT",
        "batch.input_config",
      );
      // The gateway leaves a field it does not know to the upstream, and applies its own rules.
      await expectError(
        create({ batch: { colour: "blue", input_config: { requests: { requests: [] } } } }),
        400,
        "INVALID_ARGUMENT",
        mode.name === "gateway" ? "requests must not be empty" : 'Unknown name "colour"',
      );
      await expectError(create({}), 400, "INVALID_ARGUMENT", "batch");
      await expectError(
        call("/v1beta/models/no-such-model:batchGenerateContent", {
          method: "POST",
          body: {
            batch: {
              input_config: {
                requests: { requests: [{ request: { contents: [{ parts: [{ text: "Hi" }] }] } }] },
              },
            },
          },
        }),
        404,
        "NOT_FOUND",
        "models/no-such-model",
      );
      await expectError(
        call("/v1beta/batches/doesnotexist"),
        404,
        "NOT_FOUND",
        "batches/doesnotexist",
      );
      await expectError(
        call("/v1beta/batches/doesnotexist:cancel", { method: "POST", body: {} }),
        404,
        "NOT_FOUND",
        "batches/doesnotexist",
      );
      await expectError(
        call("/v1beta/batches/doesnotexist", { method: "DELETE" }),
        404,
        "NOT_FOUND",
        "batches/doesnotexist",
      );
      await expectError(
        call("/v1beta/batches?filter=state%3DBATCH_STATE_NOPE"),
        400,
        "INVALID_ARGUMENT",
        "BATCH_STATE_NOPE",
      );
      await expectError(
        call("/v1beta/batches/doesnotexist", { method: "PATCH", body: {} }),
        405,
        "UNIMPLEMENTED",
        "PATCH",
      );

      const ai = client(mode.server, mode.alice);
      const image = await ai.files.upload({
        file: new Blob(
          [
            Buffer.from(
              "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
              "base64",
            ),
          ],
          { type: "image/png" },
        ),
        config: { mimeType: "image/png" },
      });
      await expectError(
        create({ batch: { input_config: { file_name: image.name } } }),
        400,
        "INVALID_ARGUMENT",
        "batch.input_config.file_name",
      );
      await expectError(
        call(`/v1beta/${image.name}:download?alt=media`),
        400,
        "FAILED_PRECONDITION",
        "Only generated files can be downloaded",
      );
      await expectError(
        call(`/v1beta/${image.name}:download`),
        400,
        "INVALID_ARGUMENT",
        "alt=media",
      );
      await expectError(
        call("/download/v1beta/files/nope:download?alt=media"),
        403,
        "PERMISSION_DENIED",
        "nope",
      );
    });
  });
}

test("@google/genai 3.x (calling /v1) runs an inline batch on the local engine", async () => {
  const ai = new GoogleGenAI3({
    apiKey: DEVELOPMENT_KEY,
    httpOptions: { baseUrl: localServer.baseUrl },
  });
  const job = await ai.batches.create({
    model: MODEL,
    src: [{ contents: [{ role: "user", parts: [{ text: "Hello there" }] }], config: QUICK }],
  });
  let done = await ai.batches.get({ name: job.name! });
  for (let attempt = 0; attempt < 600 && !ENDED.has(done.state ?? ""); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    done = await ai.batches.get({ name: job.name! });
  }
  expect(done.state).toBe("JOB_STATE_SUCCEEDED");
  expect(textOf(done.dest!.inlinedResponses![0]!.response!)).not.toBe("");
});

test.describe("a batch survives the server being killed", () => {
  test.describe.configure({ timeout: 240_000 });

  test("killed mid-batch, restarted on the same data: every request answered exactly once, in order", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-e2e-batch-restart-"));
    let server = await startOwnServer({ dataDir });
    try {
      const count = 200;
      const ai = new GoogleGenAI({
        apiKey: DEVELOPMENT_KEY,
        httpOptions: { baseUrl: server.baseUrl },
      });
      const uploaded = await ai.files.upload({
        file: jsonlFile(
          Array.from({ length: count }, (_, index) => ({
            key: `k${index}`,
            request: {
              contents: [{ parts: [{ text: `Question ${index}: tell me about the sea.` }] }],
              generationConfig: { maxOutputTokens: 120, thinkingConfig: { thinkingBudget: 0 } },
            },
          })),
        ),
        config: { mimeType: "application/jsonl" },
      });
      const job = await ai.batches.create({ model: MODEL, src: uploaded.name! });
      const id = job.name!.slice("batches/".length);
      // Progress read from the data directory, so nothing but the server's own start-up
      // can have set the batch going again after the restart.
      const resultsBytes = () => {
        for (const file of [`batches/${id}.results.jsonl`, `files/batch-${id}`]) {
          try {
            return fs.statSync(path.join(dataDir, file)).size;
          } catch {
            // not there (yet, or any more)
          }
        }
        return 0;
      };
      await expect.poll(resultsBytes, { timeout: 120_000 }).toBeGreaterThan(2000);
      const atKill = resultsBytes();
      await server.stop("SIGKILL");

      server = await startOwnServer({ dataDir });
      await expect.poll(resultsBytes, { timeout: 120_000 }).toBeGreaterThan(atKill);
      const again = new GoogleGenAI({
        apiKey: DEVELOPMENT_KEY,
        httpOptions: { baseUrl: server.baseUrl },
      });
      const done = await ended(again, job.name!);
      expect(done.state).toBe("JOB_STATE_SUCCEEDED");
      const downloaded = await fetch(
        `${server.baseUrl}/v1beta/${done.dest!.fileName}:download?alt=media`,
        {
          headers: { "x-goog-api-key": DEVELOPMENT_KEY },
        },
      );
      const keys = (await downloaded.text())
        .trimEnd()
        .split("\n")
        .map((line) => (JSON.parse(line) as { key: string }).key);
      expect(keys).toEqual(Array.from({ length: count }, (_, index) => `k${index}`));
    } finally {
      await server.stop("SIGKILL");
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
