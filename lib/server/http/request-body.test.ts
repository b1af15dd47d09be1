import { describe, expect, it } from "vitest";
import { readJsonBody } from "./request-body";

/** A request whose body has fully arrived already: `pieces` queued before anyone reads. */
function bufferedRequest(pieces: Uint8Array[]): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
  return new Request("http://127.0.0.1/v1beta/models/x:generateContent", {
    method: "POST",
    body,
    duplex: "half",
  } as RequestInit);
}

function piecesOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size)
    pieces.push(bytes.subarray(offset, offset + size));
  return pieces;
}

describe("readJsonBody", () => {
  it("lets other work run while a 16 MiB body that has already arrived is read", async () => {
    const text = "a ".repeat(8 * 1024 * 1024);
    const bytes = new TextEncoder().encode(JSON.stringify({ contents: [{ parts: [{ text }] }] }));
    let turns = 0;
    let reading = true;
    const tick = () => {
      if (!reading) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const body = (await readJsonBody(bufferedRequest(piecesOf(bytes, 64 * 1024)))) as {
      contents: { parts: { text: string }[] }[];
    };
    reading = false;
    expect(body.contents[0]!.parts[0]!.text.length).toBe(text.length);
    // Before: every piece was read, copied and decoded in one run, and no other turn came.
    expect(turns).toBeGreaterThanOrEqual(8);
  });

  it("decodes characters split across pieces, and refuses a body over the limit", async () => {
    const text = "zürich ✓ 😀 ".repeat(5000);
    const bytes = new TextEncoder().encode(JSON.stringify({ text }));
    const body = (await readJsonBody(bufferedRequest(piecesOf(bytes, 7)))) as { text: string };
    expect(body.text).toBe(text);
    await expect(readJsonBody(bufferedRequest(piecesOf(bytes, 1000)), 1000)).rejects.toMatchObject({
      httpStatus: 413,
    });
  });
});
