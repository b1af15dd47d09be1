import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ApiError } from "@/lib/gemini/api-error";
import { readUpstreamEvents } from "./sse-reader";

const timeouts = { connectTimeoutMs: 1, firstByteTimeoutMs: 1, idleTimeoutMs: 1 };
const scrub = (text: string) => text.split("SECRET").join("[redacted]");

function chunk(text: string, final = false) {
  return {
    candidates: [
      { content: { role: "model", parts: [{ text }] }, ...(final ? { finishReason: "STOP" } : {}) },
    ],
  };
}

async function* pieces(buffers: Buffer[]) {
  for (const buffer of buffers) yield buffer;
}

async function read(buffers: Buffer[]): Promise<{ texts: string[]; error: ApiError | null }> {
  const texts: string[] = [];
  try {
    for await (const value of readUpstreamEvents(pieces(buffers), { scrub, timeouts })) {
      texts.push(value.candidates?.[0]?.content?.parts?.[0]?.text ?? "");
    }
    return { texts, error: null };
  } catch (error) {
    if (error instanceof ApiError) return { texts, error };
    throw error;
  }
}

function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const result: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    result.push(bytes.subarray(start, point));
    start = point;
  }
  result.push(bytes.subarray(start));
  return result.filter((piece) => piece.length > 0);
}

describe("readUpstreamEvents", () => {
  it("yields the same events however the bytes are cut (multi-byte characters included)", async () => {
    const events = [chunk("Grüße, "), chunk("世界 "), chunk("🙂 done", true)];
    const wire = Buffer.from(
      events.map((value) => `data: ${JSON.stringify(value)}\r\n\r\n`).join(": ping\r\n\r\n"),
      "utf8",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 12 }), async (cuts) => {
        const { texts, error } = await read(split(wire, cuts));
        expect(error).toBeNull();
        expect(texts).toEqual(["Grüße, ", "世界 ", "🙂 done"]);
      }),
      { numRuns: 200 },
    );
  });

  it("accepts LF framing and ignores event/id lines", async () => {
    const wire = `event: message\nid: 1\ndata: ${JSON.stringify(chunk("a"))}\n\ndata: ${JSON.stringify(chunk("b", true))}\n\n`;
    expect((await read([Buffer.from(wire)])).texts).toEqual(["a", "b"]);
  });

  it("ends with the upstream's raw error object after the good events, scrubbed", async () => {
    const wire = `data: ${JSON.stringify(chunk("a"))}\r\n\r\n{"error": {"code": 500, "message": "broke near SECRET", "status": "INTERNAL"}}`;
    const { texts, error } = await read([Buffer.from(wire)]);
    expect(texts).toEqual(["a"]);
    expect(error?.httpStatus).toBe(500);
    expect(error?.message).toBe("broke near [redacted]");
  });

  it("refuses a data line that is not JSON, and a stream without a finish", async () => {
    const malformed = await read([
      Buffer.from(`data: ${JSON.stringify(chunk("a"))}\r\n\r\ndata: {nope\r\n\r\n`),
    ]);
    expect(malformed.texts).toEqual(["a"]);
    expect(malformed.error?.message).toContain("malformed");
    const truncated = await read([Buffer.from(`data: ${JSON.stringify(chunk("a"))}\r\n\r\n`)]);
    expect(truncated.texts).toEqual(["a"]);
    expect(truncated.error?.message).toContain("ended before");
  });

  it("counts a blocked prompt as a finished stream", async () => {
    const blocked = { promptFeedback: { blockReason: "SAFETY" } };
    expect(
      (await read([Buffer.from(`data: ${JSON.stringify(blocked)}\r\n\r\n`)])).error,
    ).toBeNull();
  });
});
