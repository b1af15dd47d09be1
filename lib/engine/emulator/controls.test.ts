import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import type { OriginOperationContext } from "@/lib/gemini/backend/contract";
import { createLocalBackend, type LocalBackend } from "@/lib/engine/local-backend";
import { readGenerateContentRequest } from "@/lib/gemini/validate";
import { testDatabaseKinds } from "@/lib/testing/databases";
import { streamOf, type TempData } from "@/lib/testing/engine-files";
import { EmulatorControls } from "./controls";
import { emulatedBackend } from "./emulated-backend";
import { exchangeScope } from "./exchange-scope";
import { expireFileNow } from "./expire-now";
import { ScenarioRegistry } from "./scenario-registry";

const MODEL = "models/gemini-2.5-flash";
const as = (ownerId: string): OriginOperationContext => ({
  caller: { ownerId },
  signal: new AbortController().signal,
  origin: "http://studio",
});
const inScope = <T>(ownerId: string, work: () => Promise<T>) =>
  exchangeScope.run({ ownerId, headers: new Headers(), notes: {} }, work);

describe("emulator controls", () => {
  it("refuses controls that do not fit, naming the field, and keeps the old ones", () => {
    const controls = new EmulatorControls();
    controls.set("key:alice", { clockOffsetSeconds: 60 });
    const failure = (() => {
      try {
        controls.set("key:alice", {
          fileProcessing: [{ mimeType: "video", processingSeconds: 2 }],
        });
      } catch (error) {
        return error as ApiError;
      }
    })();
    expect(failure?.httpStatus).toBe(400);
    expect(failure?.message).toMatch(/fileProcessing\[0\]\.mimeType/);
    expect(controls.offsetMs("key:alice")).toBe(60_000);
  });

  it("answers the service's 429 with a QuotaFailure once a per-minute quota is used, per model, until the caller's clock moves on", () => {
    const controls = new EmulatorControls();
    controls.set("key:alice", { quotas: { requestsPerMinute: 2 } });
    controls.chargeQuota("key:alice", "gemini-2.5-flash");
    controls.chargeQuota("key:alice", "gemini-2.5-flash");
    controls.chargeQuota("key:alice", "gemini-2.0-flash");
    controls.chargeQuota("key:bob", "gemini-2.5-flash");
    let refused: ApiError | undefined;
    try {
      controls.chargeQuota("key:alice", "gemini-2.5-flash");
    } catch (error) {
      refused = error as ApiError;
    }
    expect(refused?.httpStatus).toBe(429);
    expect(refused?.rpcStatus).toBe("RESOURCE_EXHAUSTED");
    expect(refused?.message).toMatch(/^You exceeded your current quota/);
    expect(refused?.details?.[0]).toEqual({
      "@type": "type.googleapis.com/google.rpc.QuotaFailure",
      violations: [
        {
          quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
          quotaId: "GenerateRequestsPerMinutePerProjectPerModel-FreeTier",
          quotaDimensions: { location: "global", model: "gemini-2.5-flash" },
          quotaValue: "2",
        },
      ],
    });
    expect(refused?.details?.[2]).toMatchObject({
      "@type": "type.googleapis.com/google.rpc.RetryInfo",
    });
    controls.set("key:alice", { quotas: { requestsPerMinute: 2 }, clockOffsetSeconds: 3600 });
    expect(() => controls.chargeQuota("key:alice", "gemini-2.5-flash")).not.toThrow();
  });
});

const [sqlite] = testDatabaseKinds();

describe("state and time of the local engine, per caller", () => {
  let data: TempData;
  let local: LocalBackend;
  let backend: LocalBackend;
  const controls = new EmulatorControls();

  beforeAll(async () => {
    data = await sqlite!.open();
    local = createLocalBackend({
      stores: data.stores,
      dataDir: data.dataDir,
      sweepIntervalMs: 0,
      now: controls.now,
      processingPlan: (file) => controls.processingPlan(file),
      samplesRepeatably: (ownerId) => controls.samplesRepeatably(ownerId),
    });
    backend = emulatedBackend(local, { scenarios: new ScenarioRegistry(), controls });
  });

  afterAll(async () => {
    await local.close();
    await data.cleanup();
  });

  async function upload(ownerId: string, mimeType: string, text: string) {
    const bytes = new TextEncoder().encode(text);
    return inScope(ownerId, async () => {
      const { uploadId } = await backend.startUpload(
        { declaredSize: bytes.length, contentType: mimeType, file: {} },
        as(ownerId),
      );
      const status = await backend.uploadChunk(
        uploadId,
        { upload: true, finalize: true, offset: 0, body: streamOf(bytes) },
        as(ownerId),
      );
      return status.file!;
    });
  }

  it("samples a caller's unseeded requests repeatably when asked: the same request, the same answer", async () => {
    const answerText = (ownerId: string, prompt: string) =>
      inScope(ownerId, async () => {
        const answer = (await backend.generateContent(
          MODEL,
          readGenerateContentRequest({
            contents: [{ role: "user", parts: [{ text: prompt }] }],
            generationConfig: { temperature: 2, maxOutputTokens: 60 },
          }),
          as(ownerId),
        )) as GenerateContentResponse;
        return answer.candidates?.[0]?.content?.parts.map((part) => part.text ?? "").join("");
      });
    const prompt = "Tell me something about harbours and the tides.";
    controls.set("key:carol", { repeatableSampling: true });
    const first = await answerText("key:carol", prompt);
    expect(first).toBeTruthy();
    for (let round = 0; round < 3; round++)
      expect(await answerText("key:carol", prompt)).toBe(first);
    expect(await answerText("key:carol", `${prompt} And ships.`)).not.toBe(first);
    // Another caller, without the control, draws anew on each call.
    const drawn = new Set<string | undefined>();
    for (let round = 0; round < 4; round++) drawn.add(await answerText("key:dave", prompt));
    expect(drawn.size).toBeGreaterThan(1);
  });

  it("keeps a caller's files of a type PROCESSING for the time asked, then ACTIVE; others at once", async () => {
    controls.set("key:alice", { fileProcessing: [{ mimeType: "text/*", processingSeconds: 0.4 }] });
    const slow = await upload("key:alice", "text/plain", "hello there");
    expect(slow.state).toBe("PROCESSING");
    const quick = await upload("key:bob", "text/plain", "hello there");
    expect(quick.state).toBe("ACTIVE");
    await expect
      .poll(
        async () =>
          (await inScope("key:alice", () => backend.getFile(slow.name, as("key:alice")))).state,
        {
          timeout: 5_000,
        },
      )
      .toBe("ACTIVE");
  });

  it("fails a caller's files of a type with the given error", async () => {
    controls.set("key:alice", {
      fileProcessing: [{ mimeType: "*", fail: { message: "Unsupported codec." } }],
    });
    const failed = await upload("key:alice", "text/plain", "abc");
    await expect
      .poll(
        async () =>
          (await inScope("key:alice", () => backend.getFile(failed.name, as("key:alice")))).state,
      )
      .toBe("FAILED");
    const file = await inScope("key:alice", () => backend.getFile(failed.name, as("key:alice")));
    expect(file.error).toEqual({ code: 3, message: "Unsupported codec." });
  });

  it("expires a file now for its owner only, and moves the caller's clock past a file's 48 hours", async () => {
    controls.reset("key:alice");
    const file = await upload("key:alice", "text/plain", "expire me");
    await expect(
      inScope("key:bob", () =>
        expireFileNow(local.storage, { ownerId: "key:bob" }, file.name, controls.now()),
      ),
    ).rejects.toMatchObject({ httpStatus: 404 });
    await inScope("key:alice", () =>
      expireFileNow(local.storage, { ownerId: "key:alice" }, file.name, controls.now()),
    );
    await expect(
      inScope("key:alice", () => backend.getFile(file.name, as("key:alice"))),
    ).rejects.toMatchObject({
      httpStatus: 403,
    });
    const kept = await upload("key:alice", "text/plain", "kept");
    controls.set("key:alice", { clockOffsetSeconds: 49 * 3600 });
    await expect(
      inScope("key:alice", () => backend.getFile(kept.name, as("key:alice"))),
    ).rejects.toMatchObject({
      httpStatus: 403,
    });
    controls.reset("key:alice");
    expect(
      (await inScope("key:alice", () => backend.getFile(kept.name, as("key:alice")))).state,
    ).toBe("ACTIVE");
  });

  it("refuses generations over a quota before any answer", async () => {
    controls.set("key:carol", { quotas: { requestsPerDay: 1, inputTokensPerMinute: 100_000 } });
    const request = readGenerateContentRequest({
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
    });
    await inScope("key:carol", () => backend.generateContent(MODEL, request, as("key:carol")));
    await expect(
      inScope("key:carol", () => backend.generateContent(MODEL, request, as("key:carol"))),
    ).rejects.toMatchObject({ httpStatus: 429, rpcStatus: "RESOURCE_EXHAUSTED" });
  });

  it("counts a chat completion of the OpenAI-compatible endpoint against the model's quotas", async () => {
    controls.set("key:dave", { quotas: { requestsPerMinute: 2 } });
    const chat = (model: string) =>
      inScope("key:dave", () =>
        backend.openaiChatCompletion(
          { model, messages: [{ role: "user", content: "hi" }], max_tokens: 8 },
          as("key:dave"),
        ),
      );
    const generate = readGenerateContentRequest({
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
    });
    await chat("gemini-2.5-flash");
    await inScope("key:dave", () => backend.generateContent(MODEL, generate, as("key:dave")));
    // The two above used the model's two requests a minute, whichever endpoint spent them.
    await expect(chat("gemini-2.5-flash")).rejects.toMatchObject({
      httpStatus: 429,
      rpcStatus: "RESOURCE_EXHAUSTED",
    });
    await expect(chat("gemini-2.0-flash")).resolves.toBeDefined();
  });

  it("counts an interaction's generation (unary or streamed) against the model's quotas", async () => {
    controls.set("key:erin", { quotas: { requestsPerMinute: 2 } });
    const body = { model: "gemini-2.5-flash", input: "hi" };
    const create = () => inScope("key:erin", () => backend.createInteraction(body, as("key:erin")));
    const stream = () =>
      inScope("key:erin", async () => {
        for await (const event of backend.streamCreateInteraction(
          { ...body, stream: true },
          as("key:erin"),
        ))
          void event;
      });
    await create();
    await stream();
    await expect(create()).rejects.toMatchObject({
      httpStatus: 429,
      rpcStatus: "RESOURCE_EXHAUSTED",
    });
    await expect(stream()).rejects.toMatchObject({ httpStatus: 429 });
  });
});
