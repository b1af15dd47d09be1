// countRequestTokens on media generated at run time: inline data (base64) and file references,
// per-modality details, media resolution, video clipping, and 400s that name the part.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findModel } from "@/lib/engine/catalog";
import { ApiError } from "@/lib/gemini/api-error";
import type { CachedContentCreate, Content, Part, Tool, ToolConfig } from "@/lib/gemini/types";
import {
  makeAdts,
  makeMp3,
  makeMp4,
  makePdf,
  makePng,
  makeWav,
  makeWebm,
} from "@/lib/testing/media-fixtures";
import { probeMedia } from "@/lib/engine/media/probe";
import {
  countRequestTokens,
  countTexts,
  makeThoughtSignature,
  terminateTokenizerWorkers,
} from "./index";

const flash15 = findModel("gemini-1.5-flash")!.traits;
const flash20 = findModel("gemini-2.0-flash")!.traits;
const flashLite20 = findModel("gemini-2.0-flash-lite")!.traits;
const flash25 = findModel("gemini-2.5-flash")!.traits;
const flash3 = findModel("gemini-3-flash-preview")!.traits;

function inline(mimeType: string, bytes: Uint8Array): Part {
  return { inlineData: { mimeType, data: Buffer.from(bytes).toString("base64") } };
}

afterAll(async () => {
  await terminateTokenizerWorkers();
});

describe("countRequestTokens on media", () => {
  it("counts an image on 1.5 as 258 whatever its size, 64 at LOW and 256 at MEDIUM/HIGH resolution", async () => {
    for (const [width, height] of [
      [16, 16],
      [1600, 900],
    ] as const) {
      const response = await countRequestTokens(flash15, {
        contents: [{ role: "user", parts: [inline("image/png", makePng(width, height))] }],
      });
      expect(response).toEqual({
        totalTokens: 258,
        promptTokensDetails: [{ modality: "IMAGE", tokenCount: 258 }],
      });
    }
    const image = inline("image/png", makePng(8, 8));
    const low = await countRequestTokens(flash15, {
      contents: [{ parts: [image] }],
      mediaResolution: "MEDIA_RESOLUTION_LOW",
    });
    expect(low.totalTokens).toBe(64);
    const high = await countRequestTokens(flash15, {
      contents: [{ parts: [image] }],
      mediaResolution: "MEDIA_RESOLUTION_HIGH",
    });
    expect(high.totalTokens).toBe(256);
  });

  it("counts text and an image with per-modality details and the role token on 2.5", async () => {
    const [pieces] = await countTexts("gemma3", ["Describe this picture."]);
    const response = await countRequestTokens(flash25, {
      contents: [
        {
          role: "user",
          parts: [{ text: "Describe this picture." }, inline("image/png", makePng(40, 30))],
        },
      ],
    });
    expect(response).toEqual({
      totalTokens: pieces! + 1 + 258,
      promptTokensDetails: [
        { modality: "TEXT", tokenCount: pieces! + 1 },
        { modality: "IMAGE", tokenCount: 258 },
      ],
    });
  });

  it("counts audio on 1.5 at 32 tokens per second, floor(seconds × 32) + 1", async () => {
    const response = await countRequestTokens(flash15, {
      contents: [{ parts: [inline("audio/wav", makeWav(3))] }],
    });
    expect(response).toEqual({
      totalTokens: 97,
      promptTokensDetails: [{ modality: "AUDIO", tokenCount: 97 }],
    });
    const partial = await countRequestTokens(flash15, {
      contents: [{ parts: [inline("audio/wav", makeWav(2.5))] }],
    });
    expect(partial.totalTokens).toBe(81);
  });

  it("counts audio on 3.x at 25 a second, an AAC stream by its frames and an MP3 without its padding", async () => {
    // Details besides the role token's TEXT.
    const seconds = async (traits: typeof flash3, part: Part) =>
      (
        await countRequestTokens(traits, { contents: [{ parts: [part] }] })
      ).promptTokensDetails?.filter((detail) => detail.modality !== "TEXT");
    // 13 frames of 1024 samples at 16 kHz: 0.832 s.
    const aac = inline("audio/aac", makeAdts(13));
    expect(await seconds(flash3, aac)).toEqual([{ modality: "AUDIO", tokenCount: 21 }]);
    expect(await seconds(flash25, aac)).toEqual([{ modality: "AUDIO", tokenCount: 27 }]);
    // 25 frames of 576 samples: 0.9 s, of which 1408 samples (0.088 s) are encoder delay and padding.
    const mp3 = inline("audio/mpeg", makeMp3(25, 576, 832));
    expect(await seconds(flash3, mp3)).toEqual([{ modality: "AUDIO", tokenCount: 21 }]);
    expect(await seconds(flash25, mp3)).toEqual([{ modality: "AUDIO", tokenCount: 29 }]);
  });

  it("counts pictures on 3.x as a grid of their aspect ratio: images, PDF pages, video frames", async () => {
    const image = await countRequestTokens(flash3, {
      contents: [{ parts: [inline("image/png", makePng(1600, 900))] }],
    });
    expect(image.promptTokensDetails).toContainEqual({ modality: "IMAGE", tokenCount: 44 * 25 });
    const low = await countRequestTokens(flash3, {
      contents: [{ parts: [inline("image/png", makePng(1600, 900))] }],
      mediaResolution: "MEDIA_RESOLUTION_LOW",
    });
    expect(low.totalTokens).toBe(22 * 12 + 1);
    const pdf = await countRequestTokens(flash3, {
      contents: [{ parts: [inline("application/pdf", await makePdf(2, [612, 792]))] }],
    });
    expect(pdf.promptTokensDetails).toContainEqual({
      modality: "DOCUMENT",
      tokenCount: 2 * 20 * 26,
    });
    const video = await countRequestTokens(flash3, {
      contents: [{ parts: [inline("video/mp4", makeMp4(4, { width: 640, height: 360 }))] }],
    });
    expect(video.promptTokensDetails).toContainEqual({ modality: "VIDEO", tokenCount: 4 * 11 * 6 });
  });

  it("counts a video on 2.5 a frame at each second including its end, and its sound without a track", async () => {
    const response = await countRequestTokens(flash25, {
      contents: [{ parts: [inline("video/mp4", makeMp4(4))] }],
    });
    expect(response).toEqual({
      totalTokens: 1 + 5 * 263 + 129,
      promptTokensDetails: [
        { modality: "TEXT", tokenCount: 1 },
        { modality: "VIDEO", tokenCount: 5 * 263 },
        { modality: "AUDIO", tokenCount: 129 },
      ],
    });
  });

  it("counts a PDF on 1.5 at 258 tokens per page as DOCUMENT", async () => {
    const response = await countRequestTokens(flash15, {
      contents: [{ parts: [inline("application/pdf", await makePdf(3))] }],
    });
    expect(response).toEqual({
      totalTokens: 774,
      promptTokensDetails: [{ modality: "DOCUMENT", tokenCount: 774 }],
    });
  });

  it("counts video on 1.5 at 263 tokens per second at 1 fps, honouring clipping and fps", async () => {
    const webm = inline("video/webm", makeWebm(5, { audio: true }));
    const whole = await countRequestTokens(flash15, { contents: [{ parts: [webm] }] });
    expect(whole).toEqual({
      totalTokens: 1315,
      promptTokensDetails: [{ modality: "VIDEO", tokenCount: 1315 }],
    });
    const mp4 = await countRequestTokens(flash15, {
      contents: [{ parts: [inline("video/mp4", makeMp4(4))] }],
    });
    expect(mp4.totalTokens).toBe(4 * 263);
    const clipped = await countRequestTokens(flash15, {
      contents: [
        { parts: [{ ...webm, videoMetadata: { startOffset: "1s", endOffset: "2.5s", fps: 2 } }] },
      ],
    });
    expect(clipped.totalTokens).toBe(3 * 263);
  });

  it("counts a text file as its text, in the TEXT modality", async () => {
    const text = "A plain text attachment.\nIt has two lines.";
    const [pieces] = await countTexts("gemma", [text]);
    const response = await countRequestTokens(flash20, {
      contents: [{ parts: [inline("text/plain", new TextEncoder().encode(text))] }],
    });
    expect(response).toEqual({
      totalTokens: pieces,
      promptTokensDetails: [{ modality: "TEXT", tokenCount: pieces }],
    });
  });

  it("resolves file references through the file store's callback, probed or stored", async () => {
    const pdf = await probeMedia({ bytes: await makePdf(2) }, "application/pdf");
    const stored = {
      mimeType: "image/png",
      probed: await probeMedia({ bytes: makePng(5, 5) }, "image/png"),
      path: "/nonexistent",
      sizeBytes: 1,
    };
    const seen: string[] = [];
    const response = await countRequestTokens(
      flash20,
      {
        contents: [
          {
            parts: [
              { fileData: { fileUri: "files/pdfone", mimeType: "application/pdf" } },
              { fileData: { fileUri: "https://example.test/v1beta/files/pngtwo" } },
            ],
          },
        ],
      },
      {
        resolveFile: async (fileUri) => {
          seen.push(fileUri);
          return fileUri.endsWith("pdfone") ? pdf : stored;
        },
      },
    );
    expect(seen).toEqual(["files/pdfone", "https://example.test/v1beta/files/pngtwo"]);
    expect(response).toEqual({
      totalTokens: 516 + 258,
      promptTokensDetails: [
        { modality: "IMAGE", tokenCount: 258 },
        { modality: "DOCUMENT", tokenCount: 516 },
      ],
    });
  });

  it("passes the file store's own error through", async () => {
    const denied = ApiError.permissionDenied(
      "You do not have permission to access the File nope or it may not exist.",
    );
    await expect(
      countRequestTokens(
        flash20,
        { contents: [{ parts: [{ fileData: { fileUri: "files/nope" } }] }] },
        { resolveFile: () => Promise.reject(denied) },
      ),
    ).rejects.toBe(denied);
  });

  it("answers 400 naming the part for corrupt inline media, and for file references without a file store", async () => {
    const corrupt = countRequestTokens(flash20, {
      contents: [
        { parts: [{ text: "look" }] },
        { parts: [{ text: "at" }, inline("image/png", new TextEncoder().encode("not a png"))] },
      ],
    });
    await expect(corrupt).rejects.toBeInstanceOf(ApiError);
    await expect(corrupt).rejects.toMatchObject({
      httpStatus: 400,
      rpcStatus: "INVALID_ARGUMENT",
      message: expect.stringContaining("contents[1].parts[1].inline_data"),
    });
    const system = countRequestTokens(flash20, {
      systemInstruction: { parts: [inline("audio/wav", new Uint8Array(10))] },
      contents: [],
    });
    await expect(system).rejects.toMatchObject({
      httpStatus: 400,
      message: expect.stringContaining("system_instruction.parts[0].inline_data"),
    });
    const unsupported = countRequestTokens(flash20, {
      contents: [{ parts: [inline("application/zip", new Uint8Array([1, 2]))] }],
    });
    await expect(unsupported).rejects.toMatchObject({
      httpStatus: 400,
      message: expect.stringContaining("Unsupported MIME type"),
    });
    const noStore = countRequestTokens(flash20, {
      contents: [{ parts: [{ fileData: { fileUri: "files/abc" } }] }],
    });
    await expect(noStore).rejects.toMatchObject({
      httpStatus: 400,
      message: expect.stringContaining("contents[0].parts[0].file_data"),
    });
  });

  it("answers countTokens with the per-Content split and its own role-token rule (1.5)", async () => {
    const [hello, welcome] = await countTexts("gemma", ["Hello there", "Welcome"]);
    const contents = [
      { role: "user", parts: [{ text: "Hello there" }] },
      { role: "model", parts: [{ text: "Welcome" }, inline("image/png", makePng(4, 4))] },
    ];
    const counted = await countRequestTokens(flash15, { contents }, { purpose: "countTokens" });
    expect(counted).toEqual({
      totalTokens: hello! + welcome! + 258 + 2,
      systemInstructionsTokens: {},
      contentTokens: [
        { partTokens: [hello], roleTokens: 1 },
        { partTokens: [welcome, 258], roleTokens: 1 },
      ],
      promptTokensDetails: [
        { modality: "TEXT", tokenCount: hello! + welcome! + 2 },
        { modality: "IMAGE", tokenCount: 258 },
      ],
    });
    const prompt = await countRequestTokens(flash15, { contents });
    expect(prompt.totalTokens).toBe(hello! + welcome! + 258);
    expect(prompt.contentTokens).toBeUndefined();
    const withSystem = await countRequestTokens(
      flash15,
      { systemInstruction: { parts: [{ text: "Hello there" }] }, contents: [] },
      { purpose: "countTokens" },
    );
    expect(withSystem).toMatchObject({
      totalTokens: hello! + 1,
      systemInstructionsTokens: { partTokens: [hello], roleTokens: 1 },
      contentTokens: [],
    });
  });

  it("counts an engine-made thought signature as the thinking it stands for, any other as nothing", async () => {
    const [answer] = await countTexts("gemma3", ["Done."]);
    const withSignature = (thoughtSignature: string) =>
      countRequestTokens(flash3, {
        contents: [{ role: "model", parts: [{ text: "Done.", thoughtSignature }] }],
      });
    expect((await withSignature(makeThoughtSignature(57))).totalTokens).toBe(answer! + 1 + 57);
    expect((await withSignature("CiQBVKhc7l+sPDS60pGlV5vuOHPWI5Wj")).totalTokens).toBe(answer! + 1);
  });

  it("stops at once when the signal is aborted", async () => {
    await expect(
      countRequestTokens(
        flash20,
        { contents: [{ parts: [{ text: "hi" }] }] },
        { signal: AbortSignal.abort() },
      ),
    ).rejects.toThrow(/abort/i);
  });
});

/** The recorded cachedContents.create request of an exchange (e2e/fixtures/recorded-exchanges). */
function recordedCacheRequest(id: string): CachedContentCreate {
  const line = readFileSync(path.resolve("e2e/fixtures/recorded-exchanges/exchanges.jsonl"), "utf8")
    .split("\n")
    .find((candidate) => candidate.startsWith(`{"id":${JSON.stringify(id)}`));
  return JSON.parse(line!).requestBody;
}

describe("countRequestTokens of a cache (cachedContents.create)", () => {
  const sizeOf = (
    traits: typeof flash20,
    request: Pick<CachedContentCreate, "contents" | "systemInstruction">,
  ) =>
    countRequestTokens(
      traits,
      { contents: request.contents ?? [], systemInstruction: request.systemInstruction },
      { purpose: "cache" },
    );

  it("counts the recorded 2.0 Flash-Lite caches as the service has since June 2025", async () => {
    // A system instruction, a text, a 4 s video without sound and an Opus clip: 0.74 s in the
    // recording of 2026-05-29; 0.89 s in that of 2025-05-08, whose identical request the service
    // counted 4,573 on 2025-06-13 (maruel/genai 7856ce1e; 4,311 in May, before the change).
    const newest = recordedCacheRequest(
      "maruel/genai:providers/gemini/testdata/TestClient/Cache.yaml#0",
    );
    expect((await sizeOf(flashLite20, newest)).totalTokens).toBe(4568);
    const older = recordedCacheRequest("maruel/genai:gemini/testdata/TestClient_Cache.yaml#0");
    expect((await sizeOf(flashLite20, older)).totalTokens).toBe(4573);
  });

  it("counts a 2.0 model's cache as 2.5 counts a prompt, its system instruction without a role token", async () => {
    const system = "You are a sarcastic assistant.";
    const question = "What is the word?";
    const [systemPieces, questionPieces] = await countTexts("gemma3", [system, question]);
    const cache = await sizeOf(flashLite20, {
      systemInstruction: { parts: [{ text: system }] },
      contents: [
        {
          role: "user",
          parts: [
            { text: question },
            inline("video/mp4", makeMp4(4, { width: 640, height: 360 })),
            inline("audio/wav", makeWav(0.74)),
          ],
        },
      ],
    });
    // 2.0's own rules would give the Gemma 256k pieces, no role token, 4 frames of 260 and no sound.
    expect(cache).toEqual({
      totalTokens: systemPieces! + questionPieces! + 1 + 5 * 263 + 129 + 24,
      promptTokensDetails: [
        { modality: "TEXT", tokenCount: systemPieces! + questionPieces! + 1 },
        { modality: "VIDEO", tokenCount: 5 * 263 },
        { modality: "AUDIO", tokenCount: 129 + 24 },
      ],
    });
  });

  it("leaves out the system instruction's role token of a 2.5 cache, and nothing else", async () => {
    const input = {
      systemInstruction: { parts: [{ text: "Answer in French." }] },
      contents: [
        { role: "user", parts: [{ text: "Hello" }] },
        { role: "model", parts: [{ text: "Bonjour" }] },
      ],
    };
    const prompt = await countRequestTokens(flash25, input);
    const cache = await countRequestTokens(flash25, input, { purpose: "cache" });
    expect(cache.totalTokens).toBe(prompt.totalTokens - 1);
    const withoutSystem = { contents: input.contents };
    expect(
      (await countRequestTokens(flash25, withoutSystem, { purpose: "cache" })).totalTokens,
    ).toBe((await countRequestTokens(flash25, withoutSystem)).totalTokens);
  });
});

interface RecordedMediaExchange {
  source: string;
  recorded: string;
  model: string;
  promptTokenCount: number;
  promptTokensDetails: { modality: string; tokenCount: number }[];
  /** Why a newer recording replaces this figure, where the service changed its count since. */
  superseded?: string;
  request: {
    contents: Content[];
    tools?: Tool[];
    toolConfig?: ToolConfig;
    generationConfig?: { responseSchema?: unknown };
  };
}

/** The recorded 2.0 generations with media (maruel/genai), each medium's bytes read back in. */
function recordedMediaExchanges(): RecordedMediaExchange[] {
  const folder = path.join(import.meta.dirname, "__fixtures__");
  return readFileSync(path.join(folder, "gemini-2.0-media.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) =>
      JSON.parse(line, (key, value: unknown) =>
        key === "data" && typeof value === "string" && value.startsWith("@")
          ? readFileSync(path.join(folder, "gemini-2.0-media", value.slice(1))).toString("base64")
          : value,
      ),
    );
}

describe("countRequestTokens on 2.0's experimental image output", () => {
  it("adds a role token per Content when the request asks for IMAGE output, none for text", async () => {
    const imageModel = findModel("gemini-2.0-flash-exp-image-generation")!.traits;
    const contents: Content[] = [
      { role: "user", parts: [{ text: "Combine these images side by side" }] },
      { role: "model", parts: [{ text: "Which images?" }] },
    ];
    const asText = await countRequestTokens(imageModel, { contents });
    const asImage = await countRequestTokens(imageModel, {
      contents,
      responseModalities: ["TEXT", "IMAGE"],
    });
    expect(asImage.totalTokens).toBe(asText.totalTokens + 2);
  });
});

describe("countRequestTokens on 2.0 media", () => {
  it("counts every recorded 2.0 generation with media as the service did (the newest figure of each)", async () => {
    const exchanges = recordedMediaExchanges();
    expect(exchanges.length).toBe(26);
    // A figure the service has since changed (each names the newer recording) is not the rule.
    for (const exchange of exchanges.filter((item) => !item.superseded)) {
      const { contents, tools, toolConfig, generationConfig } = exchange.request;
      const counted = await countRequestTokens(findModel(exchange.model)!.traits, {
        contents,
        ...(tools ? { tools } : {}),
        ...(toolConfig ? { toolConfig } : {}),
        ...(generationConfig?.responseSchema
          ? { responseSchema: generationConfig.responseSchema }
          : {}),
      });
      // The service lists a modality it counted nothing for (0.97 s of audio) without a count.
      const recorded = exchange.promptTokensDetails.filter((detail) => detail.tokenCount > 0);
      expect(
        { total: counted.totalTokens, details: counted.promptTokensDetails },
        exchange.source,
      ).toEqual({
        total: exchange.promptTokenCount,
        details: expect.arrayContaining(recorded),
      });
      expect(counted.promptTokensDetails?.length, exchange.source).toBe(recorded.length);
    }
  });

  it("counts an image up to 384 px a side as one tile, a larger one in tiles of its shorter side / 1.5 (256 to 768 px) plus one", async () => {
    const imageTokens = async (width: number, height: number) =>
      (
        await countRequestTokens(flash20, {
          contents: [{ parts: [inline("image/png", makePng(width, height))] }],
        })
      ).totalTokens;
    expect(await imageTokens(272, 138)).toBe(258);
    expect(await imageTokens(384, 384)).toBe(258);
    // 499 × 313: tiles of 256 (313 / 1.5 is 208, raised to the smallest tile), 2 × 2 + 1.
    expect(await imageTokens(499, 313)).toBe(5 * 258);
    expect(await imageTokens(385, 100)).toBe((2 * 1 + 1) * 258);
    // 1980 × 1380: tiles of 768 (920 lowered to the largest), 3 × 2 + 1.
    expect(await imageTokens(1980, 1380)).toBe(7 * 258);
    const low = await countRequestTokens(flash20, {
      contents: [{ parts: [inline("image/png", makePng(499, 313))] }],
      mediaResolution: "MEDIA_RESOLUTION_LOW",
    });
    expect(low.totalTokens).toBe(5 * 64);
    const pdf = await countRequestTokens(flash20, {
      contents: [{ parts: [inline("application/pdf", await makePdf(2, [612, 792]))] }],
    });
    expect(pdf.totalTokens).toBe(2 * 5 * 258);
  });

  it("counts a video 258 a frame per second started without its sound, and audio by whole seconds", async () => {
    const sounding = inline("video/webm", makeWebm(5, { audio: true }));
    expect(await countRequestTokens(flash20, { contents: [{ parts: [sounding] }] })).toEqual({
      totalTokens: 5 * 258,
      promptTokensDetails: [{ modality: "VIDEO", tokenCount: 5 * 258 }],
    });
    const clipped = await countRequestTokens(flashLite20, {
      contents: [
        {
          parts: [{ ...sounding, videoMetadata: { startOffset: "1s", endOffset: "2.5s", fps: 2 } }],
        },
      ],
    });
    expect(clipped.totalTokens).toBe(3 * 258);
    const audioTokens = async (seconds: number) =>
      (
        await countRequestTokens(flash20, {
          contents: [{ parts: [inline("audio/wav", makeWav(seconds))] }],
        })
      ).totalTokens;
    expect(await audioTokens(0.97)).toBe(0);
    expect(await audioTokens(2.5)).toBe(50);
    expect(await audioTokens(3)).toBe(75);
  });

  it("answers countTokens as 2.5 counts: a role token per Content, an image 258 whatever its size", async () => {
    const [prompt] = await countTexts("gemma3", ["Tell me about this instrument"]);
    const counted = await countRequestTokens(
      flash20,
      {
        contents: [
          { role: "user", parts: [{ text: "Tell me about this instrument" }] },
          { role: "user", parts: [inline("image/png", makePng(2048, 1362))] },
        ],
      },
      { purpose: "countTokens" },
    );
    // google-gemini/cookbook Counting_Tokens, 2.0 Flash (2025): 265 for this 5-token text.
    expect(counted).toEqual({
      totalTokens: prompt! + 258 + 2,
      systemInstructionsTokens: {},
      contentTokens: [
        { partTokens: [prompt], roleTokens: 1 },
        { partTokens: [258], roleTokens: 1 },
      ],
      promptTokensDetails: [
        { modality: "TEXT", tokenCount: prompt! + 2 },
        { modality: "IMAGE", tokenCount: 258 },
      ],
    });
    expect(prompt! + 258 + 2).toBe(265);
  });
});
