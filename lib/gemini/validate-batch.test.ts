import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error";
import { referencePlaces, requestReferences } from "./references";
import { canonicalMimeType } from "./validate-upload";
import { readBatchGenerateContentRequest, parseBatchInputLine } from "./validate-batch";
import { parseEmbedInputLine, readAsyncBatchEmbedContentRequest } from "./validate-embedding";

function refusal(work: () => unknown): ApiError {
  try {
    work();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

describe("batchGenerateContent bodies", () => {
  it("reads the SDKs' camelCase and the guide's snake_case into one canonical batch", () => {
    const request = {
      contents: [{ parts: [{ text: "Hi" }] }],
      generation_config: { temperature: 0.5 },
    };
    const snake = readBatchGenerateContentRequest({
      batch: {
        display_name: "jobs",
        priority: "7",
        input_config: { requests: { requests: [{ request, metadata: { key: "a" } }] } },
      },
    });
    const camel = readBatchGenerateContentRequest({
      batch: {
        displayName: "jobs",
        priority: 7,
        inputConfig: { requests: { requests: [{ request, metadata: { key: "a" } }] } },
      },
    });
    expect(snake).toEqual(camel);
    expect(snake).toEqual({
      batch: {
        displayName: "jobs",
        priority: 7,
        inputConfig: {
          requests: {
            requests: [
              {
                request: {
                  contents: [{ parts: [{ text: "Hi" }] }],
                  generationConfig: { temperature: 0.5 },
                },
                metadata: { key: "a" },
              },
            ],
          },
        },
      },
    });
    expect(
      readBatchGenerateContentRequest({ batch: { input_config: { file_name: "files/abc-123" } } }),
    ).toEqual({ batch: { inputConfig: { fileName: "files/abc-123" } } });
    // Any spelling of a file reference reads as its name.
    expect(
      readBatchGenerateContentRequest({
        batch: { inputConfig: { fileName: "http://127.0.0.1:3000/v1beta/files/abc" } },
      }).batch.inputConfig,
    ).toEqual({ fileName: "files/abc" });
  });

  it("reads and drops the output-only fields a client echoes back from a get", () => {
    expect(
      readBatchGenerateContentRequest({
        batch: {
          name: "batches/x",
          state: "BATCH_STATE_PENDING",
          batchStats: { requestCount: "1" },
          createTime: "2025-01-01T00:00:00Z",
          inputConfig: { fileName: "files/abc" },
        },
      }),
    ).toEqual({ batch: { inputConfig: { fileName: "files/abc" } } });
  });

  it("names the field of every refusal", () => {
    expect(refusal(() => readBatchGenerateContentRequest({})).message).toContain(
      "batch is required",
    );
    expect(
      refusal(() => readBatchGenerateContentRequest({ batch: { inputConfig: {} } })).message,
    ).toContain("batch.input_config");
    expect(
      refusal(() =>
        readBatchGenerateContentRequest({
          batch: { model: "gemini", inputConfig: { fileName: "files/a" } },
        }),
      ).message,
    ).toContain("batch.model");
    expect(
      refusal(() =>
        readBatchGenerateContentRequest({
          batch: { displayName: "x".repeat(513), inputConfig: { fileName: "files/a" } },
        }),
      ).message,
    ).toContain("batch.display_name");
    expect(
      refusal(() =>
        readBatchGenerateContentRequest({
          batch: { inputConfig: { fileName: "files/../../etc" } },
        }),
      ).message,
    ).toContain("batch.input_config.file_name");
    expect(
      refusal(() =>
        readBatchGenerateContentRequest({
          batch: { inputConfig: { requests: { requests: [{ metadata: {} }] } } },
        }),
      ).message,
    ).toContain("request is required");
    expect(
      refusal(() =>
        readBatchGenerateContentRequest({
          batch: { priority: "high", inputConfig: { fileName: "files/a" } },
        }),
      ).message,
    ).toContain("batch.priority");
  });
});

describe("JSONL input lines", () => {
  it("reads the keyed form and the bare request form", () => {
    expect(
      parseBatchInputLine('{"key":"k1","request":{"contents":[{"parts":[{"text":"Hi"}]}]}}'),
    ).toEqual({ key: "k1", request: { contents: [{ parts: [{ text: "Hi" }] }] } });
    expect(parseBatchInputLine('{"contents":[{"parts":[{"text":"Hi"}]}]}')).toEqual({
      request: { contents: [{ parts: [{ text: "Hi" }] }] },
    });
  });

  it("refuses a line that is not a request with the service's JSON payload messages", () => {
    expect(refusal(() => parseBatchInputLine("{oops")).message).toContain(
      "Invalid JSON payload received.",
    );
    expect(refusal(() => parseBatchInputLine("[1,2]")).message).toContain(
      "Root element must be a message",
    );
    expect(
      refusal(() => parseBatchInputLine('{"key":"k","request":{"contens":[]}}')).message,
    ).toContain(`Unknown name "contens" at 'request'`);
    expect(refusal(() => parseBatchInputLine('{"key":7,"request":{}}')).message).toContain("key");
  });
});

describe("MIME types", () => {
  it("stores the guide's bare jsonl as application/jsonl and leaves others as given", () => {
    expect(canonicalMimeType("jsonl")).toBe("application/jsonl");
    expect(canonicalMimeType("text/plain")).toBe("text/plain");
  });
});

describe("references of a batch create", () => {
  it("lists the input file (as a name) and every reference of the inline requests", () => {
    const places = referencePlaces("batchGenerateContent").map(
      (place) => `${place.segments.map((segment) => segment.field).join(".")} ${place.kind}`,
    );
    expect(places).toContain("batch.inputConfig.fileName file");
    expect(places).toContain(
      "batch.inputConfig.requests.requests.request.contents.parts.fileData.fileUri file",
    );
    expect(places).toContain(
      "batch.inputConfig.requests.requests.request.cachedContent cachedContent",
    );
    expect(places).toContain(
      "batch.inputConfig.requests.requests.request.tools.fileSearch.fileSearchStoreNames fileSearchStore",
    );
    const request = readBatchGenerateContentRequest({
      batch: {
        inputConfig: {
          requests: {
            requests: [
              {
                request: {
                  contents: [{ parts: [{ fileData: { fileUri: "abc", mimeType: "text/plain" } }] }],
                  cachedContent: "cachedContents/xyz",
                },
              },
            ],
          },
        },
      },
    });
    const found = requestReferences({ operation: "batchGenerateContent", request });
    expect(found.map((reference) => [reference.kind, reference.name, reference.spelling])).toEqual([
      ["file", "files/abc", "uri"],
      ["cachedContent", "cachedContents/xyz", "uri"],
    ]);
    const fromFile = readBatchGenerateContentRequest({
      batch: { inputConfig: { fileName: "files/in" } },
    });
    expect(
      requestReferences({ operation: "batchGenerateContent", request: fromFile }).map(
        (reference) => [reference.kind, reference.name, reference.spelling],
      ),
    ).toEqual([["file", "files/in", "name"]]);
  });
});

describe("a batch's envelope, the same for generation and embedding batches", () => {
  const readers = {
    BatchGenerateContentRequest: readBatchGenerateContentRequest,
    AsyncBatchEmbedContentRequest: readAsyncBatchEmbedContentRequest,
  };
  for (const [requestName, read] of Object.entries(readers)) {
    it(`${requestName}: one input source, a file of the caller's or inline requests, at least one`, () => {
      expect(refusal(() => read({ batch: { inputConfig: {} } })).message).toContain(
        `* ${requestName}.batch.input_config: input_config must set file_name`,
      );
      expect(
        refusal(() => read({ batch: { inputConfig: { requests: { requests: [] } } } })).message,
      ).toContain(
        `* ${requestName}.batch.input_config.requests.requests: requests must not be empty`,
      );
      expect(refusal(() => read({ batch: { inputConfig: { requests: {} } } })).rpcStatus).toBe(
        "INVALID_ARGUMENT",
      );
      const tooLong = refusal(() =>
        read({
          batch: { displayName: "x".repeat(513), inputConfig: { fileName: "files/abc" } },
        }),
      );
      expect(tooLong.message).toContain(
        `* ${requestName}.batch.display_name: display_name must be at most 512 characters; got 513.`,
      );
      const echoed = {
        name: "batches/b1",
        state: "BATCH_STATE_PENDING",
        output: {},
        createTime: "2026-01-01T00:00:00Z",
      };
      expect(read({ batch: { ...echoed, inputConfig: { fileName: "files/abc" } } })).toEqual({
        batch: { inputConfig: { fileName: "files/abc" } },
      });
    });
  }

  it("reads a keyed or bare JSONL line of either kind, and names a line that is not JSON", () => {
    const content = { parts: [{ text: "Hi" }] };
    expect(parseEmbedInputLine(JSON.stringify({ key: "k", request: { content } }))).toEqual({
      key: "k",
      request: { content },
    });
    expect(parseEmbedInputLine(JSON.stringify({ content }))).toEqual({ request: { content } });
    expect(parseBatchInputLine(JSON.stringify({ contents: [content] }))).toEqual({
      request: { contents: [content] },
    });
    for (const parse of [parseBatchInputLine, parseEmbedInputLine]) {
      const error = refusal(() => parse("{not json"));
      expect(error.httpStatus).toBe(400);
      expect(error.message).toMatch(/^Invalid JSON payload received\./);
    }
  });
});
