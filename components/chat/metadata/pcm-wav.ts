/**
 * Raw PCM answers (`audio/L16;codec=pcm;rate=24000`, what speech models return) have no
 * container a browser can play; a 44-byte RIFF/WAVE header makes them a WAV file. L16 is
 * big-endian by its RFC, but the service sends little-endian samples, as WAV wants.
 */

export interface PcmFormat {
  sampleRate: number;
  channels: number;
}

/** The PCM format of a raw audio MIME type, or null for containers the browser plays itself. */
export function pcmFormatOf(mimeType: string): PcmFormat | null {
  const [type, ...parameters] = mimeType.split(";").map((piece) => piece.trim().toLowerCase());
  if (type !== "audio/l16" && type !== "audio/pcm") return null;
  const values = new Map(
    parameters.map((parameter) => parameter.split("=", 2) as [string, string]),
  );
  const sampleRate = Number(values.get("rate") ?? 24000);
  const channels = Number(values.get("channels") ?? 1);
  return {
    sampleRate: Number.isFinite(sampleRate) && sampleRate > 0 ? sampleRate : 24000,
    channels: Number.isInteger(channels) && channels > 0 ? channels : 1,
  };
}

/** 16-bit PCM samples wrapped in a WAV header. */
export function wavFromPcm(pcm: Uint8Array, format: PcmFormat): Uint8Array {
  const header = new ArrayBuffer(44);
  const view = new DataView(header);
  const ascii = (offset: number, text: string) => {
    for (let index = 0; index < text.length; index++)
      view.setUint8(offset + index, text.charCodeAt(index));
  };
  const blockAlign = format.channels * 2;
  ascii(0, "RIFF");
  view.setUint32(4, 36 + pcm.length, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, format.channels, true);
  view.setUint32(24, format.sampleRate, true);
  view.setUint32(28, format.sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, pcm.length, true);
  const wav = new Uint8Array(44 + pcm.length);
  wav.set(new Uint8Array(header), 0);
  wav.set(pcm, 44);
  return wav;
}

/** Bytes of base64 text (the browser has no Buffer). */
export function base64Bytes(data: string): Uint8Array {
  const binary = atob(data.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
