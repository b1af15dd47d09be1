import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import { parseSseText } from "@/lib/gemini/sse";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import { generationStats, streamGenerateContent } from "@/lib/engine/generate";
import { inputFor } from "@/lib/testing/generation";
import { jsonArrayStreamResponse, sseResponse } from "./sse-response";

function chunk(text: string): GenerateContentResponse {
  return {
    candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0 }],
    responseId: "id",
  };
}

async function* source(chunks: GenerateContentResponse[], failWith?: unknown, delayMs = 0) {
  for (const item of chunks) {
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    yield item;
  }
  if (failWith) throw failWith;
}

describe("sseResponse", () => {
  it("writes data events only: every chunk its own event, nothing before or between", async () => {
    const response = await sseResponse(source([chunk("Hel"), chunk("lo")]), {
      signal: new AbortController().signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    const text = await response.text();
    expect(text).toBe(
      `data: ${JSON.stringify(chunk("Hel"))}\r\n\r\ndata: ${JSON.stringify(chunk("lo"))}\r\n\r\n`,
    );
  });

  it("keeps no hold of the first chunk once it is written, while the stream stays open", async () => {
    v8.setFlagsFromString("--expose-gc");
    const collectGarbage = vm.runInNewContext("gc") as () => void;
    let first: GenerateContentResponse | null = chunk("a first chunk ".repeat(1_000));
    const firstHeld = new WeakRef(first);
    // A held stream: its first chunk, then nothing for as long as the client stays.
    const iterator: AsyncIterator<GenerateContentResponse> = {
      next: () => {
        const value = first;
        first = null;
        return value === null
          ? new Promise(() => undefined)
          : Promise.resolve({ done: false, value });
      },
      return: async () => ({ done: true, value: undefined }),
    };
    const controller = new AbortController();
    const response = await sseResponse(
      { [Symbol.asyncIterator]: () => iterator },
      { signal: controller.signal },
    );
    const reader = response.body!.getReader();
    let text = "";
    while (!text.includes("\r\n\r\n"))
      text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain("a first chunk");
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    expect(firstHeld.deref()).toBeUndefined();
    controller.abort();
    await reader.cancel();
  });

  it("writes a long chunk in slices, byte for byte what JSON.stringify writes", async () => {
    const long: GenerateContentResponse = {
      candidates: [
        {
          content: {
            role: "model",
            parts: Array.from({ length: 60_000 }, (_, index) => ({ text: `piece ${index} ` })),
          },
          index: 0,
        },
      ],
    };
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    let text: string;
    try {
      const response = await sseResponse(source([chunk("first"), long]), {
        signal: new AbortController().signal,
      });
      text = await response.text();
    } finally {
      clearInterval(timer);
    }
    expect(text).toBe(
      `data: ${JSON.stringify(chunk("first"))}\r\n\r\ndata: ${JSON.stringify(long)}\r\n\r\n`,
    );
    expect(turns).toBeGreaterThan(0);
  });

  it("answers an error before the first chunk as an ordinary HTTP error", async () => {
    const response = await sseResponse(source([], ApiError.invalidArgument("bad field")), {
      signal: new AbortController().signal,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: 400, message: "bad field", status: "INVALID_ARGUMENT" },
    });
  });

  it("writes the error object after partial output, then closes", async () => {
    const response = await sseResponse(
      source([chunk("partial")], new ApiError(500, "INTERNAL", "mid-stream")),
      { signal: new AbortController().signal },
    );
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(
      text.endsWith(
        'data: {"error":{"code":500,"message":"mid-stream","status":"INTERNAL"}}\r\n\r\n',
      ),
    ).toBe(true);
    const messages = parseSseText(text);
    expect(messages.map((message) => message.kind)).toEqual(["data", "error"]);
  });

  it("hides unexpected errors behind 500 INTERNAL", async () => {
    const response = await sseResponse(source([chunk("a")], new Error("secret detail")), {
      signal: new AbortController().signal,
    });
    const text = await response.text();
    expect(text).not.toContain("secret detail");
    expect(parseSseText(text).at(-1)).toMatchObject({
      kind: "error",
      error: { code: 500, status: "INTERNAL" },
    });
  });

  it("sends nothing while the source is idle, and holds the status until the first chunk", async () => {
    async function* slow() {
      await new Promise((resolve) => setTimeout(resolve, 300));
      yield chunk("a");
      await new Promise((resolve) => setTimeout(resolve, 300));
      yield chunk("b");
    }
    const response = await sseResponse(slow(), { signal: new AbortController().signal });
    const text = await response.text();
    expect(text).toBe(
      `data: ${JSON.stringify(chunk("a"))}\r\n\r\ndata: ${JSON.stringify(chunk("b"))}\r\n\r\n`,
    );
  });

  it("answers a late failure before the first chunk as an HTTP error, however long it took", async () => {
    async function* late() {
      await new Promise((resolve) => setTimeout(resolve, 300));
      throw new ApiError(503, "UNAVAILABLE", "overloaded");
    }
    const response = await sseResponse(late(), { signal: new AbortController().signal });
    expect(response.status).toBe(503);
    expect((await response.json()).error.status).toBe("UNAVAILABLE");
  });

  it("stops a source still preparing its first chunk when the client aborts", async () => {
    const controller = new AbortController();
    let finished = false;
    async function* never(signal: AbortSignal) {
      try {
        await new Promise((resolve) => signal.addEventListener("abort", resolve));
        yield chunk("late");
      } finally {
        finished = true;
      }
    }
    const answer = sseResponse(never(controller.signal), { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const response = await answer;
    expect(response.status).toBe(499);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(finished).toBe(true);
  });

  it("stops the source when the client aborts", async () => {
    const controller = new AbortController();
    let finished = false;
    let produced = 0;
    async function* endless() {
      try {
        for (;;) {
          produced += 1;
          yield chunk("x");
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } finally {
        finished = true;
      }
    }
    const response = await sseResponse(endless(), { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.read();
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(finished).toBe(true);
    const count = produced;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(produced).toBe(count);
  });

  it("stops the source when the reader cancels", async () => {
    let finished = false;
    async function* endless() {
      try {
        for (;;) yield chunk("x");
      } finally {
        finished = true;
      }
    }
    const response = await sseResponse(endless(), { signal: new AbortController().signal });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(finished).toBe(true);
  });
});

describe("sseResponse over the local engine", () => {
  it("frees a real generation when the client goes away", async () => {
    const controller = new AbortController();
    const input = inputFor(
      "gemini-2.5-flash",
      // A long literal answer: thousands of tokens, whatever the corpus.
      `Repeat after me: ${"The keeper counted the ships that passed each night. ".repeat(400)}`,
      { thinkingConfig: { thinkingBudget: 0 } },
      {},
      controller.signal,
    );
    const before = generationStats().active;
    const response = await sseResponse(streamGenerateContent(input), { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.read();
    expect(generationStats().active).toBe(before + 1);
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(generationStats().active).toBe(before);
    const tokens = generationStats().tokens;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(generationStats().tokens).toBe(tokens);
  });
});

describe("jsonArrayStreamResponse", () => {
  it("writes a JSON array of the chunks", async () => {
    const response = await jsonArrayStreamResponse(source([chunk("a"), chunk("b")]), {
      signal: new AbortController().signal,
    });
    expect(response.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    const text = await response.text();
    expect(text).toContain("},\r\n{");
    expect(JSON.parse(text)).toEqual([chunk("a"), chunk("b")]);
  });

  it("ends with the error object after a mid-stream failure and stays valid JSON", async () => {
    const response = await jsonArrayStreamResponse(
      source([chunk("a")], new ApiError(503, "UNAVAILABLE", "overloaded")),
      {
        signal: new AbortController().signal,
      },
    );
    expect(JSON.parse(await response.text())).toEqual([
      chunk("a"),
      { error: { code: 503, message: "overloaded", status: "UNAVAILABLE" } },
    ]);
  });

  it("answers an empty stream as an empty array", async () => {
    const response = await jsonArrayStreamResponse(source([]), {
      signal: new AbortController().signal,
    });
    expect(JSON.parse(await response.text())).toEqual([]);
  });
});
