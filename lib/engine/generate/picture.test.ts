import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { probeMedia } from "@/lib/engine/media/probe";
import { drawPicture, pictureDimensions, PICTURE_SIZE } from "./picture";

/** The RGB rows of a PNG this engine wrote (one IDAT, filter 0 on every row). */
function decodeRows(png: Uint8Array): { width: number; height: number; rows: Buffer[] } {
  const bytes = Buffer.from(png);
  expect(bytes.subarray(1, 4).toString("ascii")).toBe("PNG");
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const idatAt = bytes.indexOf("IDAT");
  const length = bytes.readUInt32BE(idatAt - 4);
  const raw = inflateSync(bytes.subarray(idatAt + 4, idatAt + 4 + length));
  const rows = Array.from({ length: height }, (_, row) => {
    const start = row * (width * 3 + 1);
    expect(raw[start]).toBe(0);
    return raw.subarray(start + 1, start + 1 + width * 3);
  });
  return { width, height, rows };
}

describe("the local engine's pictures", () => {
  it("are PNGs an image reader accepts, of the picture's size", async () => {
    const png = await drawPicture("Generate an image of the Eiffel tower with fireworks.");
    const probed = await probeMedia({ bytes: png }, "image/png");
    expect(probed.width).toBe(PICTURE_SIZE);
    expect(probed.height).toBe(PICTURE_SIZE);
    const { rows } = decodeRows(png);
    expect(rows).toHaveLength(PICTURE_SIZE);
  });

  it("are the same for the same prompt and differ between prompts", async () => {
    const first = Buffer.from(await drawPicture("a lighthouse at dusk"));
    expect(Buffer.from(await drawPicture("a lighthouse at dusk")).equals(first)).toBe(true);
    expect(Buffer.from(await drawPicture("three red boats")).equals(first)).toBe(false);
  });

  it("are pictures, not one colour: the sky changes from top to bottom", async () => {
    const { rows } = decodeRows(await drawPicture("a quiet harbour"));
    const distinct = new Set(rows.map((row) => row.subarray(0, 3).toString("hex")));
    expect(distinct.size).toBeGreaterThan(20);
  });

  it("follow imageConfig.aspectRatio, the longer side PICTURE_SIZE", async () => {
    const wide = await probeMedia(
      { bytes: await drawPicture("a long beach", { aspectRatio: "16:9" }) },
      "image/png",
    );
    expect([wide.width, wide.height]).toEqual([PICTURE_SIZE, 288]);
    const tall = decodeRows(await drawPicture("a tall tower", { aspectRatio: "9:16" }));
    expect([tall.width, tall.height]).toEqual([288, PICTURE_SIZE]);
    expect(pictureDimensions("21:9")).toEqual({ width: PICTURE_SIZE, height: 219 });
    expect(pictureDimensions("4:5")).toEqual({ width: 410, height: PICTURE_SIZE });
    for (const unreadable of [undefined, "", "wide", "0:1", "16/9"])
      expect(pictureDimensions(unreadable)).toEqual({ width: PICTURE_SIZE, height: PICTURE_SIZE });
  });
});
