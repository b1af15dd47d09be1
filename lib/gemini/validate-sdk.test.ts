/**
 * The bodies the official SDK (@google/genai) puts on the wire must pass validation
 * unchanged. The SDK runs for real; only the network under it is replaced by a recorder.
 */
import {
  FunctionCallingConfigMode,
  GoogleGenAI,
  HarmBlockThreshold,
  HarmCategory,
  Modality,
  Type,
} from "@google/genai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { FLASH, TTS } from "../testing/model-traits";
import { parseCachedContentCreate, parseCachedContentUpdate } from "./validate-caches";
import { parseCountTokensRequest, parseGenerateContentRequest } from "./validate";
import { parseUploadStartBody } from "./validate-upload";

interface Recorded {
  url: URL;
  body: unknown;
}

let recorded: Recorded[] = [];
const realFetch = globalThis.fetch;

beforeEach(() => {
  recorded = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const text = typeof init?.body === "string" ? init.body : "";
    recorded.push({ url, body: text ? (JSON.parse(text) as unknown) : undefined });
    const answer = {
      candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP" }],
      totalTokens: 1,
      name: "cachedContents/abc",
      model: "models/gemini-2.5-flash",
    };
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: {
        "content-type": "application/json",
        "x-goog-upload-url": "http://127.0.0.1:9/upload/v1beta/files?upload_id=1",
        "x-goog-upload-status": "final",
      },
    });
  }) as typeof fetch;
});

afterEach(() => {
  globalThis.fetch = realFetch;
});

const ai = () =>
  new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: "http://127.0.0.1:9" } });
const lastBody = () => recorded[recorded.length - 1]!.body;

describe("bodies of the official SDK", () => {
  it("generateContent with every common setting", async () => {
    await ai().models.generateContent({
      model: "gemini-2.5-flash",
      contents: [
        {
          role: "user",
          parts: [
            { text: "What is the weather?" },
            { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
          ],
        },
        {
          role: "model",
          parts: [{ functionCall: { name: "get_weather", args: { city_name: "Paris" } } }],
        },
        {
          role: "user",
          parts: [{ functionResponse: { name: "get_weather", response: { temp_c: 21 } } }],
        },
      ],
      config: {
        systemInstruction: "Answer briefly.",
        temperature: 0.4,
        topP: 0.9,
        topK: 20,
        maxOutputTokens: 512,
        stopSequences: ["END"],
        seed: 7,
        presencePenalty: 0.5,
        frequencyPenalty: -0.5,
        responseLogprobs: true,
        logprobs: 5,
        candidateCount: 2,
        thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
        safetySettings: [
          {
            category: HarmCategory.HARM_CATEGORY_HARASSMENT,
            threshold: HarmBlockThreshold.BLOCK_ONLY_HIGH,
          },
        ],
        tools: [
          {
            functionDeclarations: [
              {
                name: "get_weather",
                description: "Weather of a city",
                parameters: {
                  type: Type.OBJECT,
                  properties: { city_name: { type: Type.STRING } },
                  required: ["city_name"],
                },
              },
              {
                name: "get_time",
                parametersJsonSchema: z.toJSONSchema(z.object({ zone: z.string() })),
              },
            ],
          },
        ],
        toolConfig: {
          functionCallingConfig: {
            mode: FunctionCallingConfigMode.ANY,
            allowedFunctionNames: ["get_weather"],
          },
        },
      },
    });
    const request = parseGenerateContentRequest(lastBody(), FLASH);
    expect(request.systemInstruction).toEqual({
      role: "user",
      parts: [{ text: "Answer briefly." }],
    });
    expect(request.contents[1]!.parts[0]!.functionCall!.args).toEqual({ city_name: "Paris" });
    expect(request.generationConfig).toMatchObject({
      temperature: 0.4,
      topK: 20,
      logprobs: 5,
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
    });
  });

  it("generateContent with a JSON schema made by zod, $schema and all", async () => {
    const responseJsonSchema = z.toJSONSchema(
      z.object({
        name: z.string(),
        tags: z.array(z.string()).optional(),
        kind: z.enum(["a", "b"]),
      }),
    );
    await ai().models.generateContent({
      model: "gemini-2.5-flash",
      contents: "Make one",
      config: { responseMimeType: "application/json", responseJsonSchema },
    });
    expect(
      parseGenerateContentRequest(lastBody(), FLASH).generationConfig?.responseJsonSchema,
    ).toEqual(responseJsonSchema);
  });

  it("generateContent with a response schema and enum output", async () => {
    await ai().models.generateContent({
      model: "gemini-2.5-flash",
      contents: "Which instrument?",
      config: {
        responseMimeType: "text/x.enum",
        responseSchema: { type: Type.STRING, enum: ["Percussion", "String", "Brass"] },
      },
    });
    expect(parseGenerateContentRequest(lastBody(), FLASH).generationConfig?.responseSchema).toEqual(
      { type: "STRING", enum: ["Percussion", "String", "Brass"] },
    );
  });

  it("generateContentStream with speech settings on a speech model", async () => {
    await ai().models.generateContent({
      model: "gemini-2.5-flash-preview-tts",
      contents: "Say hello",
      config: {
        responseModalities: [Modality.AUDIO],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: "Kore" } } },
      },
    });
    expect(parseGenerateContentRequest(lastBody(), TTS).generationConfig?.speechConfig).toEqual({
      voiceConfig: { prebuiltVoiceConfig: { voiceName: "Kore" } },
    });
  });

  it("generateContent with a cached content", async () => {
    await ai().models.generateContent({
      model: "gemini-2.5-flash",
      contents: "Summarise",
      config: { cachedContent: "cachedContents/abc123" },
    });
    expect(parseGenerateContentRequest(lastBody(), FLASH).cachedContent).toBe(
      "cachedContents/abc123",
    );
  });

  it("countTokens", async () => {
    await ai().models.countTokens({
      model: "gemini-2.5-flash",
      contents: "The quick brown fox jumps over the lazy dog.",
    });
    expect(parseCountTokensRequest(lastBody(), FLASH)).toEqual({
      contents: [
        { role: "user", parts: [{ text: "The quick brown fox jumps over the lazy dog." }] },
      ],
    });
  });

  it("caches.create and caches.update", async () => {
    const client = ai();
    await client.caches.create({
      model: "gemini-2.5-flash",
      config: {
        displayName: "Docs",
        systemInstruction: "Use the docs.",
        contents: [{ role: "user", parts: [{ text: "A long document." }] }],
        ttl: "600s",
      },
    });
    expect(parseCachedContentCreate(lastBody())).toEqual({
      model: "models/gemini-2.5-flash",
      displayName: "Docs",
      systemInstruction: { role: "user", parts: [{ text: "Use the docs." }] },
      contents: [{ role: "user", parts: [{ text: "A long document." }] }],
      ttl: "600s",
    });
    await client.caches.update({ name: "cachedContents/abc", config: { ttl: "1200s" } });
    const update = recorded[recorded.length - 1]!;
    expect(
      parseCachedContentUpdate(update.body, update.url.searchParams.get("updateMask")),
    ).toEqual({ ttl: "1200s" });
    await client.caches.update({
      name: "cachedContents/abc",
      config: { expireTime: "2030-01-01T00:00:00Z" },
    });
    expect(parseCachedContentUpdate(lastBody(), null)).toEqual({
      expireTime: "2030-01-01T00:00:00Z",
    });
  });

  it("files.upload start", async () => {
    await ai()
      .files.upload({
        file: new Blob(["hello"], { type: "text/plain" }),
        config: { displayName: "hello.txt" },
      })
      .catch(() => undefined);
    const start = recorded.find((entry) => entry.url.pathname === "/upload/v1beta/files");
    expect(start).toBeDefined();
    expect(parseUploadStartBody(start!.body)).toEqual({
      displayName: "hello.txt",
      mimeType: "text/plain",
    });
  });
});

describe("every request field the newest official SDK sends to this API", () => {
  it("is accepted: the generateContent body with each field set", async () => {
    const { GoogleGenAI: GoogleGenAI3 } = await import("google-genai-3");
    const client = new GoogleGenAI3({
      apiKey: "test-key",
      httpOptions: { baseUrl: "http://127.0.0.1:9" },
    });
    await client.models.generateContent({
      model: "gemini-3.5-flash",
      contents: [
        {
          role: "user",
          parts: [
            { text: "Where is it?", partMetadata: { source: "camera" } },
            {
              fileData: { fileUri: "https://example.com/a.jpg", mimeType: "image/jpeg" },
              mediaResolution: { level: "MEDIA_RESOLUTION_HIGH" },
            } as never,
            {
              inlineData: { mimeType: "video/mp4", data: "AAAA" },
              videoMetadata: { fps: 2, startOffset: "1s" },
            },
          ],
        },
        {
          role: "model",
          parts: [
            {
              toolCall: { id: "t1", toolType: "GOOGLE_SEARCH_WEB", args: { query: "x" } },
            } as never,
            { executableCode: { language: "PYTHON", code: "print(1)", id: "c1" } } as never,
            { functionCall: { id: "f1", name: "locate", args: {} }, thoughtSignature: "c2ln" },
          ],
        },
        {
          role: "user",
          parts: [
            {
              toolResponse: { id: "t1", toolType: "GOOGLE_SEARCH_WEB", response: { ok: true } },
            } as never,
            { codeExecutionResult: { outcome: "OUTCOME_OK", output: "1", id: "c1" } } as never,
            {
              functionResponse: {
                id: "f1",
                name: "locate",
                response: { place: "Paris" },
                parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }],
                scheduling: "WHEN_IDLE",
                willContinue: false,
              },
            } as never,
          ],
        },
      ],
      config: {
        serviceTier: "FLEX",
        mediaResolution: "MEDIA_RESOLUTION_LOW",
        thinkingConfig: { includeThoughts: true, thinkingLevel: "LOW" },
        audioTranscriptionConfig: { languageCodes: ["en-US"], wordTimestamp: true },
        imageConfig: { aspectRatio: "16:9", imageSize: "2K" },
        enableEnhancedCivicAnswers: true,
        tools: [
          { googleSearch: { searchTypes: { webSearch: {}, imageSearch: {} } } },
          { urlContext: {} },
          { codeExecution: {} },
          {
            fileSearch: {
              fileSearchStoreNames: ["fileSearchStores/s1"],
              topK: 3,
              metadataFilter: "a=1",
            },
          },
          { googleMaps: { enableWidget: true } },
          {
            computerUse: {
              environment: "ENVIRONMENT_BROWSER",
              excludedPredefinedFunctions: ["drag"],
            },
          },
          {
            mcpServers: [
              {
                name: "m",
                streamableHttpTransport: { url: "https://example.com/mcp", timeout: "5s" },
              },
            ],
          },
          {
            googleSearchRetrieval: {
              dynamicRetrievalConfig: { mode: "MODE_DYNAMIC", dynamicThreshold: 0.5 },
            },
          },
        ],
        toolConfig: {
          retrievalConfig: { latLng: { latitude: 48.85, longitude: 2.35 }, languageCode: "fr" },
          includeServerSideToolInvocations: true,
        },
      } as never,
    });
    const body = lastBody() as Record<string, unknown>;
    // What the SDK put on the wire, checked so this test notices when it stops sending a field.
    expect(body).toMatchObject({ serviceTier: "FLEX" });
    expect(JSON.stringify(body)).toContain("includeServerSideToolInvocations");
    const request = parseGenerateContentRequest(body, FLASH);
    expect(request.serviceTier).toBe("FLEX");
    expect(request.generationConfig?.thinkingConfig?.thinkingLevel).toBe("LOW");
    expect(request.contents[0]!.parts[1]!.mediaResolution).toEqual({
      level: "MEDIA_RESOLUTION_HIGH",
    });
    expect(request.toolConfig?.retrievalConfig?.latLng).toEqual({
      latitude: 48.85,
      longitude: 2.35,
    });
  });

  it("still refuses a name no SDK sends, naming it", () => {
    const body = { contents: [{ parts: [{ text: "hi" }] }], generationConfig: { colour: "red" } };
    expect(() => parseGenerateContentRequest(body, FLASH)).toThrow(/Unknown name "colour"/);
  });
});
