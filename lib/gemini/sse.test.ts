import { describe, expect, it } from "vitest";
import { encodeSseError, encodeSseEvent, parseSseText, SseReader, type SseMessage } from "./sse";

const kinds = (messages: SseMessage[]) =>
  messages.map((message) =>
    message.kind === "data"
      ? { data: message.value }
      : message.kind === "error"
        ? { error: message.error }
        : message.kind === "long-data"
          ? { longData: message.text }
          : { invalid: message.reason },
  );

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
});

describe("SseReader", () => {
  it("reads events split at any character, in every line-end style, skipping comments", () => {
    const events =
      ": ping\r\n\r\n" +
      encodeSseEvent({ responseId: "1" }) +
      "event: message\nid: 7\ndata: " +
      JSON.stringify({ responseId: "2" }) +
      "\r\r" +
      encodeSseError({ error: { code: 503, message: "x", status: "UNAVAILABLE" } });
    for (let cut = 1; cut < events.length; cut++) {
      for (const second of [cut + 1, cut + 5]) {
        const reader = new SseReader();
        const messages = [
          ...reader.feed(events.slice(0, cut)),
          ...reader.feed(events.slice(cut, second)),
          ...reader.feed(events.slice(second)),
          ...reader.end(),
        ];
        expect(kinds(messages), `cut at ${cut}, ${second}`).toEqual([
          { data: { responseId: "1" } },
          { data: { responseId: "2" } },
          { error: { code: 503, message: "x", status: "UNAVAILABLE" } },
        ]);
      }
    }
  });

  it("reads the raw error object the real service writes without data:, pretty-printed or not", () => {
    const pretty = JSON.stringify(
      [{ error: { code: 500, message: "m } {", status: "INTERNAL" } }],
      null,
      2,
    );
    for (const raw of [
      '{"error": {"code": 500, "message": "m } {", "status": "INTERNAL"}}',
      pretty,
      pretty.replace(/\n/g, "\r\n"),
    ]) {
      const messages = parseSseText(encodeSseEvent({ responseId: "1" }) + raw);
      expect(kinds(messages)).toEqual([
        { data: { responseId: "1" } },
        { error: { code: 500, message: "m } {", status: "INTERNAL" } },
      ]);
    }
  });

  it("reports what is no event: data that is not JSON, stray text, an unfinished object", () => {
    expect(kinds(parseSseText("data: {nope\n\n"))).toEqual([{ invalid: "not-json" }]);
    expect(kinds(parseSseText("hello there\n\n"))).toEqual([{ invalid: "stray-text" }]);
    expect(kinds(parseSseText('{"candidates": []}\n'))).toEqual([{ invalid: "stray-text" }]);
    expect(kinds(parseSseText('{"error": {"code": 500'))).toEqual([{ invalid: "stray-text" }]);
  });

  it("refuses an event larger than its limit and reads nothing after it", () => {
    const reader = new SseReader({ maxEventCharacters: 1000 });
    const messages = [
      ...reader.feed(encodeSseEvent({ responseId: "1" })),
      ...reader.feed(`data: "${"x".repeat(600)}`),
      ...reader.feed("y".repeat(600)),
      ...reader.feed(`"\n\n${encodeSseEvent({ responseId: "2" })}`),
      ...reader.end(),
    ];
    expect(kinds(messages)).toEqual([{ data: { responseId: "1" } }, { invalid: "too-large" }]);
    const raw = new SseReader({ maxEventCharacters: 1000 });
    expect(kinds([...raw.feed(`{"error": "${"z".repeat(2000)}"}`), ...raw.end()])).toEqual([
      { invalid: "too-large" },
    ]);
  });

  it("reads hostile streams in linear time", () => {
    // A 64 KiB piece of empty lines ending in one CR (eventsource-parser alone: ~235 ms each),
    // then a 32 MB event without a blank line in 64 KiB pieces.
    const started = performance.now();
    const reader = new SseReader({ maxEventCharacters: 64 * 1024 * 1024 });
    for (let index = 0; index < 16; index++) reader.feed(`${"\n".repeat(65_535)}\r`);
    reader.feed("data: ");
    const piece = "x".repeat(65_536);
    for (let index = 0; index < 512; index++) reader.feed(piece);
    expect(reader.end().map((message) => message.kind)).toEqual(["invalid"]);
    // A generous "did not hang" bound: quadratic work takes minutes here.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
