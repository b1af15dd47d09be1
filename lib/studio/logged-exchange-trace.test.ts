import { describe, expect, it } from "vitest";
import { loggedExchangeTrace } from "./logged-exchange-trace";
import type { LoggedExchange } from "./request-logs";

const base: Omit<LoggedExchange, "responseBody" | "responseHeaders" | "responseTiming"> = {
  id: "genstudio-log:x",
  operation: "streamGenerateContent",
  method: "POST",
  path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
  query: { alt: "sse" },
  requestHeaders: { "content-type": "application/json" },
  requestBodyEncoding: "json",
  requestBody: { contents: [{ parts: [{ text: "hi" }] }] },
  status: 200,
  cassetteVersion: 1,
};

describe("a logged exchange in the inspector", () => {
  it("splits a stream into events timed by the piece that completed each", () => {
    const first = `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: "He" }] } }] })}\r\n\r\n`;
    const second = `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: "llo" }] } }], usageMetadata: { totalTokenCount: 5 } })}\r\n\r\n`;
    const { trace, usageMetadata } = loggedExchangeTrace(
      {
        ...base,
        responseHeaders: { "content-type": "text/event-stream" },
        responseBody: first + second,
        responseTiming: {
          headersMs: 3,
          chunks: [
            [10, first.length - 4],
            [12, 4],
            [40, second.length],
          ],
        },
      },
      1_000,
    );
    expect(trace.model).toBe("models/gemini-2.5-flash");
    expect(trace.url).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(trace.events.map((event) => event.at)).toEqual([12, 40]);
    expect(trace.firstTokenAt).toBe(12);
    expect(trace.endedAt).toBe(40);
    expect(usageMetadata).toEqual({ totalTokenCount: 5 });
    expect(trace.errorBody).toBeUndefined();
  });

  it("shows a failed request's body as its error", () => {
    const body = JSON.stringify({ error: { code: 429, status: "RESOURCE_EXHAUSTED" } });
    const { trace } = loggedExchangeTrace(
      {
        ...base,
        operation: "generateContent",
        status: 429,
        responseHeaders: { "content-type": "application/json" },
        responseBody: body,
        responseTiming: { headersMs: 2, chunks: [[2, body.length]] },
      },
      0,
    );
    expect(trace.events).toHaveLength(1);
    expect(trace.errorBody).toBe(body);
  });
});
