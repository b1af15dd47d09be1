import { describe, expect, it } from "vitest";
import { encodeSseError, encodeSseEvent, parseSseText, SseParser } from "./sse";

describe("SSE framing", () => {
  it("frames a response as one data line ending in CRLF CRLF", () => {
    const text = encodeSseEvent({
      candidates: [{ content: { role: "model", parts: [{ text: "line one\nline two\r\n" }] } }],
      responseId: "r",
    });
    expect(text.startsWith("data: {")).toBe(true);
    expect(text.endsWith("}\r\n\r\n")).toBe(true);
    const line = text.slice(0, -4);
    expect(line).not.toMatch(/[\r\n]/);
    expect(JSON.parse(line.slice(6))).toEqual({
      candidates: [{ content: { role: "model", parts: [{ text: "line one\nline two\r\n" }] } }],
      responseId: "r",
    });
  });

  it("frames the error object as its own data event", () => {
    const text = encodeSseError({ error: { code: 500, message: "boom", status: "INTERNAL" } });
    expect(text).toBe('data: {"error":{"code":500,"message":"boom","status":"INTERNAL"}}\r\n\r\n');
  });

  it("parses events split at any byte, skipping comments other servers send, and reports errors", () => {
    const whole =
      ": ping\r\n\r\n" +
      encodeSseEvent({ responseId: "1" }) +
      encodeSseEvent({ responseId: "2" }) +
      encodeSseError({ error: { code: 503, message: "x", status: "UNAVAILABLE" } });
    for (let cut = 1; cut < whole.length; cut += 7) {
      const parser = new SseParser();
      const messages = [
        ...parser.push(whole.slice(0, cut)),
        ...parser.push(whole.slice(cut)),
        ...parser.finish(),
      ];
      expect(messages).toEqual([
        { kind: "data", value: { responseId: "1" } },
        { kind: "data", value: { responseId: "2" } },
        { kind: "error", error: { code: 503, message: "x", status: "UNAVAILABLE" } },
      ]);
    }
  });

  it("accepts the raw error object the real service writes without data:", () => {
    const text =
      encodeSseEvent({ responseId: "1" }) +
      '{"error": {"code": 500, "message": "m", "status": "INTERNAL"}}';
    expect(parseSseText(text)).toEqual([
      { kind: "data", value: { responseId: "1" } },
      { kind: "error", error: { code: 500, message: "m", status: "INTERNAL" } },
    ]);
  });
});
