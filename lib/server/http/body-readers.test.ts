import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import {
  bodyOfOutcome,
  IN_THREAD_BYTES,
  readBodyForForwardingHere,
  type BodyReaderOutcome,
} from "./body-reader-client";
import { PIECE_CHARACTERS } from "@/lib/runtime/piece-writer";
import {
  answerBodyReaderRequest,
  readBodyText,
  readForwardedBody,
  replyTransferList,
  sourceText,
  type BodyReaderName,
} from "./body-readers";
import { bodyReaderValue, longestString } from "@/lib/testing/body-reader-replies";

/** A body read through the worker's protocol (its answer, then this thread's slices). */
async function throughWorker(text: string, reader: BodyReaderName): Promise<unknown> {
  const bytes = new TextEncoder().encode(text);
  const reply = answerBodyReaderRequest({ id: 1, reader, bytes: [bytes], size: bytes.length });
  if (reply.kind === "ready") throw new Error("unexpected ready");
  return bodyOfOutcome(reply);
}

async function outcome(read: () => unknown): Promise<{ value?: unknown; error?: unknown }> {
  try {
    return { value: await read() };
  } catch (error) {
    return {
      error:
        error instanceof ApiError
          ? {
              status: error.httpStatus,
              rpc: error.rpcStatus,
              message: error.message,
              details: error.details,
            }
          : String(error),
    };
  }
}

/** The worker's way gives exactly what reading on this thread gives: value or error. */
async function expectSameReading(text: string, reader: BodyReaderName): Promise<void> {
  const direct = await outcome(() => readBodyText(text, reader));
  const viaWorker = await outcome(() => throughWorker(text, reader));
  expect(viaWorker).toStrictEqual(direct);
}

const part = (index: number) =>
  [
    { text: `Turn ${index}: tell me about rivers.` },
    { inline_data: { mime_type: "image/png", data: "iVBORw0KGgo=" } },
    {
      file_data: {
        file_uri: `https://example.com/v1beta/files/file-${index}`,
        mime_type: "text/plain",
      },
    },
    {
      functionCall: {
        name: "lookup",
        args: { city: "Paris", days: [1, 2.5, -0.25], nested: { ok: true, none: null } },
      },
    },
    { function_response: { name: "lookup", response: { result: "found it", list: [] } } },
    { text: "Thinking…", thought: true, thoughtSignature: "c2lnbmF0dXJl" },
  ][index % 6];

const generateBodies: unknown[] = [
  {},
  { contents: { parts: { text: "A single Content and a single Part" } } },
  {
    contents: Array.from({ length: 12 }, (_, index) => ({
      role: index % 2 ? "model" : "user",
      parts: [part(index), { text: "x".repeat(index * 10) }],
    })),
    system_instruction: { parts: [{ text: "Be brief. \u2028 😀 \ud800" }] },
    tools: [
      {
        function_declarations: [
          {
            name: "lookup",
            description: "Looks a thing up.",
            parameters: {
              type: "object",
              properties: { query: { type: "string" }, __proto__: { type: "integer" } },
              required: ["query"],
            },
          },
        ],
      },
      { codeExecution: {} },
    ],
    toolConfig: { functionCallingConfig: { mode: "any", allowedFunctionNames: ["lookup"] } },
    safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH" }],
    generationConfig: {
      temperature: "0.5",
      top_k: 3,
      maxOutputTokens: 64,
      stopSequences: ["END"],
      responseMimeType: "application/json",
      responseSchema: { type: "OBJECT", properties: { a: { type: "STRING", enum: ["x", "y"] } } },
      thinkingConfig: { thinkingBudget: 0 },
    },
  },
  { contents: [{ parts: [{ text: "unknown field" }], colour: "red" }] },
  { contents: [{ parts: [{ text: "a", inlineData: { mimeType: "image/png", data: "!!" } }] }] },
  { contents: [{ parts: [] }], generationConfig: { temperature: "hot", candidateCount: 1.5 } },
  { contents: "not a list", model: 3 },
];

describe("body readers through the worker's protocol", () => {
  it("give what reading on this thread gives, for bodies of every operation, valid or not", async () => {
    const cases: [unknown, BodyReaderName][] = [
      ...generateBodies.map((body): [unknown, BodyReaderName] => [body, "generateContent"]),
      ...generateBodies.map((body): [unknown, BodyReaderName] => [
        { generate_content_request: { model: "models/gemini-2.5-flash", ...(body as object) } },
        "countTokens",
      ]),
      [{ contents: [{ parts: [{ text: "count me" }] }] }, "countTokens"],
      [
        { model: "models/gemini-2.5-flash", contents: generateBodies[2], ttl: "60s" },
        "cachedContentCreate",
      ],
      [
        {
          model: "models/gemini-2.5-flash",
          contents: (generateBodies[2] as { contents: unknown }).contents,
          systemInstruction: { parts: [{ text: "cached" }] },
          ttl: "300s",
        },
        "cachedContentCreate",
      ],
      [
        {
          batch: {
            display_name: "nightly",
            input_config: {
              requests: { requests: [{ request: generateBodies[1], metadata: { key: "a" } }] },
            },
          },
        },
        "batchCreate",
      ],
      ...generateBodies.map((body): [unknown, BodyReaderName] => [body, "json"]),
    ];
    for (const [body, reader] of cases) {
      const text = JSON.stringify(body);
      await expectSameReading(text, reader);
      // And the same bodies made long enough to be read in slices on this thread.
      await expectSameReading(`${text}${" ".repeat(70_000)}`, reader);
    }
  });

  it("give the same JSON errors and nesting refusals", async () => {
    const texts = [
      "",
      "   ",
      "{",
      '{"contents": [}',
      `{"contents": ${"[".repeat(150)}${"]".repeat(150)}}`,
      `{"a": "${"x".repeat(70_000)}" "b"}`,
      "null",
      "[]",
    ];
    for (const text of texts)
      for (const reader of ["json", "generateContent", "countTokens"] as const)
        await expectSameReading(text, reader);
  });

  it("decode bytes split anywhere as TextDecoder decodes the whole body", async () => {
    const body = JSON.stringify({
      contents: [{ parts: [{ text: "zürich ✓ 😀 \u2028 end" }] }],
      generationConfig: { temperature: 0.5 },
    });
    const encoded = [
      new TextEncoder().encode(body),
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(body)]),
      new Uint8Array([
        ...new TextEncoder().encode(body.slice(0, -3)),
        0xff,
        0xc3,
        ...new TextEncoder().encode('"}}'),
      ]),
    ];
    for (const bytes of encoded)
      for (const size of [1, 2, 3, 7, 64, bytes.length]) {
        const pieces: Uint8Array[] = [];
        for (let offset = 0; offset < bytes.length; offset += size)
          pieces.push(bytes.slice(offset, offset + size));
        const text = new TextDecoder().decode(bytes);
        expect(sourceText({ bytes: pieces, size: bytes.length })).toBe(text);
        const direct = await outcome(() => readBodyText(text, "generateContent"));
        const reply = answerBodyReaderRequest({
          id: 1,
          reader: "generateContent",
          bytes: pieces,
          size: bytes.length,
        });
        const viaWorker = await outcome(() => bodyOfOutcome(reply as BodyReaderOutcome));
        expect(viaWorker).toStrictEqual(direct);
      }
  });

  it("give the same for random JSON", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 6 }),
        fc.constantFrom<BodyReaderName>("json", "generateContent", "countTokens"),
        async (value, reader) => expectSameReading(JSON.stringify(value), reader),
      ),
      { numRuns: 300 },
    );
  });

  it("answer a wide request as JSON pieces in a buffer handed over, never one text of it", async () => {
    const text = JSON.stringify({
      contents: [{ parts: [{ text: "Give me JSON." }] }],
      generationConfig: {
        responseMimeType: "application/json",
        responseJsonSchema: {
          anyOf: Array.from({ length: 20_000 }, (_, index) => ({
            type: "object",
            properties: { [`k${index}`]: { type: "string" } },
          })),
        },
      },
    });
    const reply = bodyReaderValue(text);
    // Nothing in the message is a string of the request's size: only pieces' bytes.
    expect(longestString(reply)).toBeLessThan(1_000);
    const { bytes: pieceBytes, ends } = reply.pieces;
    expect(pieceBytes.length).toBeGreaterThan(1_000_000);
    for (let index = 0; index < ends.length; index++)
      expect(ends[index]! - (index === 0 ? 0 : ends[index - 1]!)).toBeLessThanOrEqual(
        PIECE_CHARACTERS,
      );
    expect(replyTransferList(reply)).toContain(pieceBytes.buffer);
    expect(await bodyOfOutcome(reply)).toStrictEqual(readBodyText(text, "generateContent"));
  });
});

describe("sourceText", () => {
  it("starts every body afresh: nothing of the body before carries over, a BOM is dropped each time", () => {
    const utf8 = (text: string) => new TextEncoder().encode(text);
    // Cut inside a character of three bytes: the end is one replacement character.
    expect(sourceText({ bytes: [utf8("ab"), new Uint8Array([0xe2, 0x82])], size: 4 })).toBe(
      "ab\ufffd",
    );
    expect(sourceText({ bytes: [new Uint8Array([0xac]), utf8("cd")], size: 3 })).toBe("\ufffdcd");
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8("{}")]);
    expect(sourceText({ bytes: [withBom], size: 5 })).toBe("{}");
    expect(sourceText({ bytes: [withBom], size: 5 })).toBe("{}");
    expect(sourceText({ bytes: [], size: 0 })).toBe("");
  });
});

describe("readBodyForForwardingHere", () => {
  it("reads a body under IN_THREAD_BYTES at once, as readForwardedBody does; a larger one not at all", () => {
    const small = new TextEncoder().encode(
      JSON.stringify({ contents: [{ parts: [{ text: "hi" }] }] }),
    );
    const read = readBodyForForwardingHere({ bytes: [small], size: small.length }, "countTokens");
    expect(read).not.toBeInstanceOf(Promise);
    expect(read!.request).toEqual(
      readForwardedBody({ bytes: [small], size: small.length }, "countTokens").request,
    );
    expect(read!.source.bytes[0]).toBe(small);
    const large = new Uint8Array(IN_THREAD_BYTES).fill(0x20);
    expect(
      readBodyForForwardingHere({ bytes: [large], size: large.length }, "countTokens"),
    ).toBeNull();
    // Its refusals are thrown at once, as the service's 400.
    const broken = new TextEncoder().encode("{");
    expect(() =>
      readBodyForForwardingHere({ bytes: [broken], size: broken.length }, "countTokens"),
    ).toThrow(ApiError);
  });
});
