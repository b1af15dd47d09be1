import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ApiError } from "@/lib/gemini/api-error";
import { createScrubber } from "../config/scrubber";
import { readUpstreamEvents } from "./sse-reader";

const timeouts = { connectTimeoutMs: 1, firstByteTimeoutMs: 1, idleTimeoutMs: 1 };
const scrub = createScrubber("SECRET-KEY-0123456789", "http://upstream.internal:8080");

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
    const wire = `data: ${JSON.stringify(chunk("a"))}\r\n\r\n{"error": {"code": 500, "message": "broke near SECRET-KEY-0123456789", "status": "INTERNAL"}}`;
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

describe("readUpstreamEvents against a hostile upstream", () => {
  it("reads a 48 MB event without a blank line in linear time and refuses one over the cap", async () => {
    // The reader before this one searched the whole buffer again for every piece: minutes here.
    const piece = Buffer.alloc(64 * 1024, 0x78);
    const started = performance.now();
    const long = await read([
      Buffer.from(`data: ${JSON.stringify(chunk("a"))}\n\ndata: "`),
      ...Array.from({ length: 768 }, () => piece),
    ]);
    expect(long.texts).toEqual(["a"]);
    expect(long.error?.message).toContain("malformed event");
    const huge = await read([
      Buffer.from('data: "'),
      ...Array.from({ length: 1100 }, () => piece),
      Buffer.from(`"\n\n`),
    ]);
    expect(huge.error?.message).toContain("larger than the gateway accepts");
    // A generous "did not hang" bound.
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it("reads pieces of empty lines that end in a carriage return in linear time", async () => {
    const started = performance.now();
    const hostile = Buffer.from(`${"\n".repeat(65_535)}\r`);
    const result = await read([
      ...Array.from({ length: 64 }, () => hostile),
      Buffer.from(`data: ${JSON.stringify(chunk("end", true))}\r\n\r\n`),
    ]);
    expect(result).toEqual({ texts: ["end"], error: null });
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("scrubs the key and the upstream's address from every chunk", async () => {
    const key = "SECRET-KEY-0123456789";
    const leaky = {
      ...chunk(
        `key ${key.toLowerCase()} base64 ${Buffer.from(`ab${key}`).toString("base64")}`,
        true,
      ),
      citationMetadata: {
        citationSources: [{ uri: "http://upstream.internal:8080/v1beta/files/x" }],
      },
    };
    const events: unknown[] = [];
    for await (const value of readUpstreamEvents(
      pieces([Buffer.from(`data: ${JSON.stringify(leaky)}\n\n`)]),
      { scrub, timeouts },
    ))
      events.push(value);
    const text = JSON.stringify(events);
    expect(text.toLowerCase()).not.toContain(key.toLowerCase());
    expect(text).not.toContain(Buffer.from(key).toString("base64").slice(4, -4));
    expect(text).not.toContain("upstream.internal");
    expect(text).toContain('"uri":"/v1beta/files/x"');
  });

  it("reads a long event in slices: scrubbed, and others served meanwhile", async () => {
    const text =
      `see http://upstream.internal:8080/v1beta/files/a key SECRET-KEY-0123456789 `.repeat(40_000);
    const wire = Buffer.from(`data: ${JSON.stringify(chunk(text, true))}\r\n\r\n`);
    expect(wire.length).toBeGreaterThan(2_000_000);
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    let result: Awaited<ReturnType<typeof read>>;
    try {
      result = await read(split(wire, [65_536, 1_000_000]));
    } finally {
      clearInterval(timer);
    }
    expect(result.error).toBeNull();
    expect(result.texts[0]).toBe("see /v1beta/files/a key [redacted] ".repeat(40_000));
    expect(turns).toBeGreaterThan(0);
  });

  it("answers a long error object as the upstream's error", async () => {
    const body = {
      error: {
        code: 429,
        message: `slow down ${"x".repeat(100_000)}`,
        status: "RESOURCE_EXHAUSTED",
      },
    };
    const { texts, error } = await read([
      Buffer.from(
        `data: ${JSON.stringify(chunk("a"))}\r\n\r\ndata: ${JSON.stringify(body)}\r\n\r\n`,
      ),
    ]);
    expect(texts).toEqual(["a"]);
    expect(error?.httpStatus).toBe(429);
    expect(error?.rpcStatus).toBe("RESOURCE_EXHAUSTED");
  });

  it("scrubs a key split across events, in the text a client joins", async () => {
    const key = "SECRET-KEY-0123456789";
    for (let cut = 1; cut < key.length; cut++)
      for (const spelling of [key, key.toLowerCase(), Buffer.from(key).toString("hex")]) {
        const at = Math.min(cut, spelling.length - 1);
        const events = [
          chunk(`The key is ${spelling.slice(0, at)}`),
          chunk(`${spelling.slice(at)}, told.`),
          chunk(" Bye.", true),
        ];
        const wire = Buffer.from(
          events.map((value) => `data: ${JSON.stringify(value)}\r\n\r\n`).join(""),
        );
        let joined = "";
        for await (const value of readUpstreamEvents(pieces([wire]), { scrub, timeouts }))
          for (const part of value.candidates?.[0]?.content?.parts ?? []) joined += part.text ?? "";
        expect(joined, `${spelling} cut at ${at}`).toMatch(
          /^The key is .{0,7}\[redacted\], told\. Bye\.$/,
        );
      }
  });
});
