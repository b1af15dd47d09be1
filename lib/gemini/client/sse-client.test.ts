import { describe, expect, it } from "vitest";
import { ApiError } from "../api-error";
import {
  readGenerateContentStream,
  streamGenerateContent,
  streamGenerateContentPath,
} from "./sse-client";
import type { GenerateContentResponse } from "../types";

function bodyOf(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

function chunk(
  text: string,
  extra: Partial<GenerateContentResponse> = {},
): GenerateContentResponse {
  return {
    candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0 }],
    responseId: "r1",
    ...extra,
  };
}

async function collect(
  stream: AsyncIterable<GenerateContentResponse>,
): Promise<{ chunks: GenerateContentResponse[]; error?: unknown }> {
  const chunks: GenerateContentResponse[] = [];
  try {
    for await (const item of stream) chunks.push(item);
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}

const event = (value: unknown) => `data: ${JSON.stringify(value)}\r\n\r\n`;

describe("readGenerateContentStream", () => {
  it("yields one response per event, even when events are split across reads", async () => {
    const text =
      event(chunk("Hel")) +
      ": ping\r\n\r\n" +
      event(chunk("lo", { usageMetadata: { totalTokenCount: 3 } }));
    const pieces = [text.slice(0, 7), text.slice(7, 40), text.slice(40)];
    const { chunks, error } = await collect(readGenerateContentStream(bodyOf(pieces)));
    expect(error).toBeUndefined();
    expect(chunks.map((item) => item.candidates?.[0]?.content?.parts[0]?.text)).toEqual([
      "Hel",
      "lo",
    ]);
    expect(chunks[1]?.usageMetadata?.totalTokenCount).toBe(3);
  });

  it("throws a mid-stream error event as ApiError after the partial chunks", async () => {
    const errorBody = {
      error: {
        code: 503,
        message: "The model is overloaded. Please try again later.",
        status: "UNAVAILABLE",
      },
    };
    const { chunks, error } = await collect(
      readGenerateContentStream(bodyOf([event(chunk("partial")), event(errorBody)])),
    );
    expect(chunks).toHaveLength(1);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).httpStatus).toBe(503);
    expect((error as ApiError).message).toContain("overloaded");
  });

  it("reads the raw (unframed) error object the real service writes", async () => {
    const raw = JSON.stringify(
      { error: { code: 500, message: "Internal error", status: "INTERNAL" } },
      null,
      2,
    );
    const { chunks, error } = await collect(
      readGenerateContentStream(bodyOf([event(chunk("a")), raw])),
    );
    expect(chunks).toHaveLength(1);
    expect((error as ApiError).rpcStatus).toBe("INTERNAL");
  });

  it("stops with an AbortError when the signal is aborted", async () => {
    const controller = new AbortController();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(streamController) {
        streamController.enqueue(encoder.encode(event(chunk("first"))));
      },
    });
    const received: string[] = [];
    let caught: unknown;
    try {
      for await (const item of readGenerateContentStream(body, controller.signal)) {
        received.push(item.candidates?.[0]?.content?.parts[0]?.text ?? "");
        controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(received).toEqual(["first"]);
    expect((caught as Error).name).toBe("AbortError");
  });
});

describe("streamGenerateContent", () => {
  it("posts the request to the SSE path and throws the error body of a failed start", async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const fakeFetch = (async (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      return new Response(
        JSON.stringify({
          error: { code: 400, message: "* temperature: out of range", status: "INVALID_ARGUMENT" },
        }),
        {
          status: 400,
          headers: { "Content-Type": "application/json" },
        },
      );
    }) as typeof fetch;
    const { error } = await collect(
      streamGenerateContent({
        model: "models/gemini-2.5-flash",
        request: { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
        fetch: fakeFetch,
      }),
    );
    expect(calls[0]?.url).toBe(streamGenerateContentPath("gemini-2.5-flash"));
    expect(calls[0]?.url).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(JSON.parse(String(calls[0]?.init?.body)).contents[0].parts[0].text).toBe("hi");
    expect((error as ApiError).httpStatus).toBe(400);
    expect((error as ApiError).message).toContain("temperature");
  });
});
