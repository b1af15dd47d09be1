// The single hostile requests of bench/hostile-input.mjs beside its sized text shapes: one per
// generating operation and per input that once held the server (speech of a long text, a
// picture, a batch at the output limit, speech through the Interactions API, a wide anyOf
// schema, PDFs of junk, a URL of dots, a prompt the input limit refuses). Each `send(call)` makes its request(s) through `call`
// (method, path, body, headers) and answers the status that ends it.

import { OUTPUT_LIMIT_REQUEST } from "../e2e/support/long-request.mjs";

const MiB = 2 ** 20;
const words = (count) =>
  "The quick brown fox jumps over the lazy dog. ".repeat(Math.ceil(count / 9));
const TTS = "gemini-2.5-flash-preview-tts";

/** Bytes that are no PDF, after a PDF header, of about `bytes` bytes. */
function junkPdf(bytes) {
  const body = Buffer.alloc(bytes - 9, "1 0 obj << /Type /Page >> endobj ");
  return Buffer.concat([Buffer.from("%PDF-1.7\n"), body]);
}

/** Polls `path` until its JSON says `done` (a batch) or names a state other than PROCESSING. */
async function settled(call, path, read) {
  for (let attempt = 0; attempt < 1200; attempt++) {
    const { status, text } = await call("GET", path);
    if (status !== 200) return status;
    const outcome = read(JSON.parse(text));
    if (outcome) return outcome;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return "timeout";
}

/** Uploads `bytes` by the resumable protocol (start, then one upload-and-finalize): the file. */
async function upload(call, bytes, mimeType) {
  const start = await call("POST", "/upload/v1beta/files", JSON.stringify({ file: {} }), {
    "x-goog-upload-protocol": "resumable",
    "x-goog-upload-command": "start",
    "x-goog-upload-header-content-length": String(bytes.length),
    "x-goog-upload-header-content-type": mimeType,
  });
  const location = new URL(start.headers["x-goog-upload-url"]);
  const done = await call("POST", location.pathname + location.search, bytes, {
    "x-goog-upload-command": "upload, finalize",
    "x-goog-upload-offset": "0",
    "content-type": mimeType,
  });
  return { status: done.status, file: JSON.parse(done.text).file };
}

/**
 * A generateContent whose body is written once, here: writing megabytes of JSON while the
 * light requests run would hold this process's own loop, and with it their timing.
 */
const generate = (model, body) => {
  const bytes = Buffer.from(JSON.stringify(body));
  return (call) =>
    call("POST", `/v1beta/models/${model}:generateContent`, bytes).then((answer) => answer.status);
};

export const OPERATIONS = {
  "speech: 3,000 words, to the output limit": generate(TTS, {
    contents: [{ parts: [{ text: words(3_000) }] }],
    generationConfig: { responseModalities: ["AUDIO"] },
  }),
  "speech: 300 words": generate(TTS, {
    contents: [{ parts: [{ text: words(300) }] }],
    generationConfig: { responseModalities: ["AUDIO"] },
  }),
  "picture: a prompt near the input limit": generate("gemini-2.5-flash-image", {
    contents: [{ parts: [{ text: "A lighthouse at dusk. ".repeat(4_000) }] }],
    generationConfig: { responseModalities: ["TEXT", "IMAGE"] },
  }),
  "batch: a request at the output limit": async (call) => {
    const created = await call(
      "POST",
      "/v1beta/models/gemini-2.5-flash:batchGenerateContent",
      JSON.stringify({
        batch: { inputConfig: { requests: { requests: [{ request: OUTPUT_LIMIT_REQUEST }] } } },
      }),
    );
    if (created.status !== 200) return created.status;
    const name = JSON.parse(created.text).name;
    return settled(call, `/v1beta/${name}`, (operation) =>
      operation.done ? operation.metadata.state.replace("BATCH_STATE_", "") : null,
    );
  },
  "schema: 100,000 anyOf branches": generate("gemini-2.5-flash", {
    contents: [{ parts: [{ text: "Give me JSON." }] }],
    generationConfig: {
      maxOutputTokens: 64,
      thinkingConfig: { thinkingBudget: 0 },
      responseMimeType: "application/json",
      responseJsonSchema: {
        anyOf: Array.from({ length: 100_000 }, (_, index) => ({
          type: "object",
          properties: { [`k${index}`]: { type: "string" } },
        })),
      },
    },
  }),
  "PDF: 50 MB of junk uploaded, then probed": async (call) => {
    const { status, file } = await upload(call, junkPdf(50 * 1_000_000), "application/pdf");
    if (status !== 200) return status;
    return settled(call, `/v1beta/${file.name}`, (read) =>
      read.state === "PROCESSING" ? null : read.state,
    );
  },
  "PDF: 10 MB of junk inline": generate("gemini-2.5-flash", {
    contents: [
      {
        parts: [
          { text: "What is in it?" },
          {
            inlineData: {
              mimeType: "application/pdf",
              data: junkPdf(10 * 1_000_000).toString("base64"),
            },
          },
        ],
      },
    ],
    generationConfig: { maxOutputTokens: 16, thinkingConfig: { thinkingBudget: 0 } },
  }),
  "URL of dots: a 1.2 MB fileUri": generate("gemini-2.5-flash", {
    contents: [
      {
        parts: [
          { text: "See this." },
          {
            fileData: {
              mimeType: "image/png",
              fileUri: `https://example.com/${".".repeat(1_200_000)}`,
            },
          },
        ],
      },
    ],
    generationConfig: { maxOutputTokens: 16, thinkingConfig: { thinkingBudget: 0 } },
  }),
  "URL of dots: a 1.2 MB path": (call) =>
    call("GET", `/v1beta/files/${".".repeat(1_200_000)}`).then((answer) => answer.status),
  "interactions: speech of 3,000 words, to the output limit": (call) =>
    call(
      "POST",
      "/v1beta/interactions",
      JSON.stringify({ model: TTS, input: words(3_000), response_modalities: ["AUDIO"] }),
    ).then((answer) => answer.status),
  "token limit: 12 MiB of one long line, refused": generate("gemini-2.5-flash", {
    contents: [{ parts: [{ text: "abcdefghij".repeat((12 * MiB) / 10) }] }],
    generationConfig: { maxOutputTokens: 16 },
  }),
};
