import { describe, expect, it } from "vitest";
import { base64Bytes, pcmFormatOf, wavFromPcm } from "./pcm-wav";

describe("raw PCM answers as WAV", () => {
  it("reads the rate and channels of the MIME type", () => {
    expect(pcmFormatOf("audio/L16;codec=pcm;rate=24000")).toEqual({
      sampleRate: 24000,
      channels: 1,
    });
    expect(pcmFormatOf("audio/pcm; rate=16000; channels=2")).toEqual({
      sampleRate: 16000,
      channels: 2,
    });
    expect(pcmFormatOf("audio/wav")).toBeNull();
  });

  it("writes a header that a WAV reader accepts", () => {
    const pcm = base64Bytes(Buffer.from([1, 0, 255, 127, 0, 128]).toString("base64"));
    const wav = wavFromPcm(pcm, { sampleRate: 24000, channels: 1 });
    const view = Buffer.from(wav);
    expect(view.subarray(0, 4).toString("ascii")).toBe("RIFF");
    expect(view.readUInt32LE(4)).toBe(36 + 6);
    expect(view.subarray(8, 16).toString("ascii")).toBe("WAVEfmt ");
    expect(view.readUInt16LE(20)).toBe(1);
    expect(view.readUInt32LE(24)).toBe(24000);
    expect(view.readUInt32LE(28)).toBe(48000);
    expect(view.readUInt16LE(34)).toBe(16);
    expect(view.subarray(36, 40).toString("ascii")).toBe("data");
    expect(view.readUInt32LE(40)).toBe(6);
    expect([...view.subarray(44)]).toEqual([1, 0, 255, 127, 0, 128]);
  });
});
