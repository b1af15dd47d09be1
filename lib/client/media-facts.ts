"use client";

/**
 * Facts the browser reads from a local file before it is sent, kept with the prompt so the
 * transcript can show them later: an image's thumbnail (uploaded bytes cannot be read back
 * from the service) and the length of audio or video.
 */

/** Longest side of a thumbnail, in pixels (about 3–8 KB as JPEG). */
const THUMBNAIL_SIZE = 160;

/** A small JPEG data URL of an image, or null when the browser cannot decode it. */
export async function imageThumbnail(url: string): Promise<string | null> {
  try {
    const image = new Image();
    image.decoding = "async";
    image.src = url;
    await image.decode();
    const scale = Math.min(1, THUMBNAIL_SIZE / Math.max(image.naturalWidth, image.naturalHeight));
    const width = Math.max(1, Math.round(image.naturalWidth * scale));
    const height = Math.max(1, Math.round(image.naturalHeight * scale));
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext("2d");
    if (!context) return null;
    context.drawImage(image, 0, 0, width, height);
    return canvas.toDataURL("image/jpeg", 0.75);
  } catch {
    return null;
  }
}

/** The length of local audio or video in seconds, or null when the browser cannot read it. */
export function mediaDuration(url: string, kind: "audio" | "video"): Promise<number | null> {
  return new Promise((resolve) => {
    const element = document.createElement(kind);
    element.preload = "metadata";
    const done = (value: number | null) => {
      element.removeAttribute("src");
      resolve(value);
    };
    element.onloadedmetadata = () =>
      done(Number.isFinite(element.duration) && element.duration > 0 ? element.duration : null);
    element.onerror = () => done(null);
    element.src = url;
  });
}
