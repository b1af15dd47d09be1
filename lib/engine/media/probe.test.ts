// The media probe on files generated at run time, given as bytes and as extension-less paths
// (how the file store keeps them), and its typed errors for corrupt or unsupported media.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  makeAdts,
  makeMp3,
  makeMp4,
  makePdf,
  makePng,
  makeWav,
  makeWebm,
} from "@/lib/testing/media-fixtures";
import { jpegFrameSize } from "./jpeg-frame";
import { MAX_TEXT_BYTES, MediaProbeError, mediaKindOf, probeMedia } from "./probe";

let folder: string;
let counter = 0;
async function asFile(bytes: Uint8Array): Promise<string> {
  const file = path.join(folder, `blob${counter++}`);
  await writeFile(file, bytes);
  return file;
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "probe-test-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("probeMedia", () => {
  it("reads the size of a PNG from bytes and from a file", async () => {
    const png = makePng(37, 21);
    const expected = {
      kind: "image",
      mimeType: "image/png",
      sizeBytes: png.byteLength,
      width: 37,
      height: 21,
    };
    expect(await probeMedia({ bytes: png }, "image/png")).toEqual(expected);
    expect(await probeMedia({ path: await asFile(png) }, "image/png")).toEqual(expected);
  });

  it("reads the size of a JPEG of any coding process from its frame header", async () => {
    // An arithmetic-coded (SOF9) JPEG the service read as 272 × 138 (maruel/genai, 2.0 Flash-Lite).
    const recorded = await readFile(
      path.join(import.meta.dirname, "../tokens/__fixtures__/gemini-2.0-media/1fd867225372.jpg"),
    );
    expect(await probeMedia({ bytes: recorded }, "image/jpeg")).toMatchObject({
      kind: "image",
      width: 272,
      height: 138,
    });
    // SOI, an APP0 segment, then a progressive (SOF2) frame header: height 3, width 5.
    const progressive = Uint8Array.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc2, 0x00, 0x0b, 0x08, 0x00, 0x03,
      0x00, 0x05, 0x01, 0x01, 0x11, 0x00,
    ]);
    expect(jpegFrameSize(progressive)).toEqual({ width: 5, height: 3 });
    expect(jpegFrameSize(progressive.subarray(0, 12))).toBeUndefined();
    expect(jpegFrameSize(makePng(2, 2))).toBeUndefined();
  });

  it("reads the duration of a WAV from bytes and from an extension-less file", async () => {
    const wav = makeWav(3);
    const fromBytes = await probeMedia({ bytes: wav }, "audio/wav");
    expect(fromBytes.kind).toBe("audio");
    expect(fromBytes.durationSeconds).toBeCloseTo(3, 3);
    const fromFile = await probeMedia({ path: await asFile(wav) }, "audio/wav");
    expect(fromFile.durationSeconds).toBeCloseTo(3, 3);
  });

  it("reads the duration of WebM and MP4 videos, and whether a WebM has sound", async () => {
    const webm = await probeMedia({ bytes: makeWebm(4.5, { audio: true }) }, "video/webm");
    expect(webm).toMatchObject({ kind: "video", hasAudio: true });
    expect(webm.durationSeconds).toBeCloseTo(4.5, 3);
    const silent = await probeMedia({ path: await asFile(makeWebm(2)) }, "video/webm");
    expect(silent).toMatchObject({ kind: "video", hasAudio: false });
    expect(silent.durationSeconds).toBeCloseTo(2, 3);
    const mp4 = await probeMedia({ bytes: makeMp4(7.25) }, "video/mp4");
    expect(mp4.durationSeconds).toBeCloseTo(7.25, 3);
    expect(mp4.hasAudio).toBe(false);
    const mp4File = await probeMedia(
      { path: await asFile(makeMp4(61, { audio: true, mediaDataBytes: 3_000_000 })) },
      "video/mp4",
    );
    expect(mp4File).toMatchObject({ kind: "video", hasAudio: true });
    expect(mp4File.durationSeconds).toBeCloseTo(61, 3);
  });

  it("reads a video's picture size from an MP4 track header and from WebM tracks", async () => {
    const mp4 = makeMp4(3, { width: 640, height: 360 });
    expect(await probeMedia({ path: await asFile(mp4) }, "video/mp4")).toMatchObject({
      width: 640,
      height: 360,
    });
    const webm = makeWebm(3, { width: 200, height: 300 });
    expect(await probeMedia({ bytes: webm }, "video/webm")).toMatchObject({
      width: 200,
      height: 300,
    });
    expect(await probeMedia({ bytes: makeMp4(3) }, "video/mp4")).not.toHaveProperty("width");
  });

  it("measures an ADTS AAC stream by its frames", async () => {
    for (const [frames, rate] of [
      [13, 16_000],
      [200, 44_100],
    ] as const) {
      const aac = makeAdts(frames, rate);
      for (const input of [{ bytes: aac }, { path: await asFile(aac) }]) {
        const probed = await probeMedia(input, "audio/aac");
        expect(probed.durationSeconds).toBeCloseTo((frames * 1024) / rate, 6);
      }
    }
  });

  it("reads the encoder delay and padding an MP3's LAME tag names", async () => {
    const mp3 = makeMp3(25, 576, 832);
    for (const input of [{ bytes: mp3 }, { path: await asFile(mp3) }]) {
      const probed = await probeMedia(input, "audio/mpeg");
      expect(probed.durationSeconds).toBeCloseTo((25 * 576) / 16_000, 6);
      expect(probed.paddingSeconds).toBeCloseTo((576 + 832) / 16_000, 6);
    }
  });

  it("reads each PDF page's size, turned pages turned", async () => {
    const pdf = await makePdf(2, [612, 792]);
    expect(await probeMedia({ bytes: pdf }, "application/pdf")).toMatchObject({
      pages: 2,
      pageSizes: [
        { width: 612, height: 792 },
        { width: 612, height: 792 },
      ],
    });
    const { PDFDocument, degrees } = await import("pdf-lib");
    const document = await PDFDocument.load(pdf);
    document.getPage(1).setRotation(degrees(90));
    expect(await probeMedia({ bytes: await document.save() }, "application/pdf")).toMatchObject({
      pageSizes: [
        { width: 612, height: 792 },
        { width: 792, height: 612 },
      ],
    });
  });

  it("counts the pages of a PDF", async () => {
    const pdf = await makePdf(3);
    expect(await probeMedia({ bytes: pdf }, "application/pdf")).toMatchObject({
      kind: "document",
      pages: 3,
    });
    expect(await probeMedia({ path: await asFile(pdf) }, "application/pdf")).toMatchObject({
      kind: "document",
      pages: 3,
    });
  });

  it("reads PDFs off the request thread: 20 MB of objects that only start like a PDF cost it little", async () => {
    const junk = Buffer.concat([
      Buffer.from("%PDF-1.7\n"),
      Buffer.alloc(20 * 1024 * 1024, "1 0 obj << /Type /Page >> endobj "),
    ]);
    // The main thread's own CPU time (Linux), which other processes on the machine do not move.
    const schedstat = `/proc/self/task/${process.pid}/schedstat`;
    const cpu = async () => Number((await readFile(schedstat, "utf8")).split(" ")[0]) / 1e6;
    const before = await cpu();
    const refused = await probeMedia({ bytes: junk }, "application/pdf").catch((error) => error);
    const spent = (await cpu()) - before;
    expect(refused).toBeInstanceOf(MediaProbeError);
    expect((refused as MediaProbeError).message).toMatch(/The PDF could not be read/);
    // Parsed here, this took seconds of this thread's CPU; posted to the worker, a fraction.
    expect(spent).toBeLessThan(1_000);
  }, 120_000);

  it("decodes text files, honouring a charset and flagging truncation", async () => {
    const text = "Grüße, 日本語 😀\n";
    expect(await probeMedia({ bytes: new TextEncoder().encode(text) }, "text/plain")).toEqual({
      kind: "text",
      mimeType: "text/plain",
      sizeBytes: Buffer.byteLength(text),
      text,
    });
    const latin1 = Buffer.from("café", "latin1");
    expect((await probeMedia({ bytes: latin1 }, "text/plain; charset=ISO-8859-1")).text).toBe(
      "café",
    );
    expect((await probeMedia({ bytes: Buffer.from('{"a": 1}') }, "application/json")).kind).toBe(
      "text",
    );

    const long = Buffer.from("é".repeat(MAX_TEXT_BYTES / 2 + 10), "utf8");
    const probed = await probeMedia({ path: await asFile(long) }, "text/markdown");
    expect(probed.textTruncated).toBe(true);
    expect(probed.sizeBytes).toBe(long.byteLength);
    expect(Buffer.byteLength(probed.text!, "utf8")).toBeLessThanOrEqual(MAX_TEXT_BYTES);
    expect(probed.text!.endsWith("é")).toBe(true);
  });

  it("names the kind of MIME types", () => {
    expect(mediaKindOf("image/jpeg")).toBe("image");
    expect(mediaKindOf("Audio/MPEG")).toBe("audio");
    expect(mediaKindOf("video/mp4; codecs=avc1")).toBe("video");
    expect(mediaKindOf("application/pdf")).toBe("document");
    expect(mediaKindOf("text/csv")).toBe("text");
    expect(mediaKindOf("application/zip")).toBeUndefined();
  });

  it.each([
    ["image/png", new TextEncoder().encode("this is not a picture"), "corrupt"],
    ["audio/wav", new TextEncoder().encode("RIFF but not really"), "corrupt"],
    ["video/mp4", new Uint8Array(64), "corrupt"],
    ["application/pdf", new TextEncoder().encode("%PDF-1.7 broken"), "corrupt"],
    ["text/plain", Uint8Array.from([0x66, 0xff, 0xfe, 0x80]), "corrupt"],
    ["text/plain; charset=klingon", new TextEncoder().encode("qapla'"), "unsupported"],
    ["application/zip", new Uint8Array([1, 2, 3]), "unsupported"],
    ["image/png", new Uint8Array(), "corrupt"],
  ])("refuses %s media it cannot read with a typed error", async (mimeType, bytes, problem) => {
    const failure = probeMedia({ bytes }, mimeType);
    await expect(failure).rejects.toBeInstanceOf(MediaProbeError);
    await expect(failure).rejects.toMatchObject({ problem });
  });

  it("reads raw 16-bit PCM (a speech answer sent back in history) by its size and rate", async () => {
    const second = new Uint8Array(48_000);
    await expect(
      probeMedia({ bytes: second }, "audio/L16;codec=pcm;rate=24000"),
    ).resolves.toMatchObject({ kind: "audio", durationSeconds: 1 });
    await expect(
      probeMedia({ bytes: second }, "audio/l16; rate=12000; channels=2"),
    ).resolves.toMatchObject({ durationSeconds: 1 });
    await expect(probeMedia({ bytes: second }, "audio/pcm")).resolves.toMatchObject({
      durationSeconds: 1.5,
    });
    await expect(probeMedia({ bytes: second }, "audio/L16")).rejects.toMatchObject({
      problem: "unsupported",
    });
    await expect(
      probeMedia({ bytes: new Uint8Array(3) }, "audio/L16;rate=24000"),
    ).rejects.toMatchObject({ problem: "corrupt" });
  });

  it("stops when the signal is already aborted", async () => {
    await expect(
      probeMedia({ bytes: makePng(2, 2) }, "image/png", AbortSignal.abort()),
    ).rejects.toThrow(/abort/i);
  });
});
