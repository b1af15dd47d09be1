// readPieces: a Node stream read to its end through its events, with a byte limit.
import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readPieces } from "./readable-pieces";

const tooLarge = () => new Error("too large");

describe("readPieces", () => {
  it("answers every piece in order and their size", async () => {
    const stream = Readable.from([Buffer.from("ab"), Buffer.from("cde")], { objectMode: false });
    const read = await readPieces(stream, 10, tooLarge);
    expect(Buffer.concat(read.pieces).toString()).toBe("abcde");
    expect(read.size).toBe(5);
  });

  it("refuses more than the limit and destroys the stream", async () => {
    const stream = new PassThrough();
    const reading = readPieces(stream, 4, tooLarge);
    stream.write("abc");
    stream.write("def");
    await expect(reading).rejects.toThrow("too large");
    expect(stream.destroyed).toBe(true);
  });

  it("rejects with the stream's error, and with premature close when it closes unfinished", async () => {
    const failing = new PassThrough();
    const failed = readPieces(failing, 100, tooLarge);
    failing.destroy(new Error("socket hang up"));
    await expect(failed).rejects.toThrow("socket hang up");

    const cut = new PassThrough();
    const closed = readPieces(cut, 100, tooLarge);
    cut.write("partial");
    cut.destroy();
    await expect(closed).rejects.toMatchObject({ code: "ERR_STREAM_PREMATURE_CLOSE" });
    await expect(readPieces(cut, 100, tooLarge)).rejects.toMatchObject({
      code: "ERR_STREAM_PREMATURE_CLOSE",
    });
  });

  it("answers at once for a stream already ended", async () => {
    const stream = Readable.from([Buffer.from("x")], { objectMode: false });
    await readPieces(stream, 10, tooLarge);
    expect(await readPieces(stream, 10, tooLarge)).toEqual({ pieces: [], size: 0 });
  });
});
