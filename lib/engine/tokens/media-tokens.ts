/**
 * Token cost of media (api-notes §4, spec "MediaResolution"): image 258 (LOW 64, MEDIUM/HIGH
 * 256), audio 32 per second, video 263 per second at 1 fps, PDF 258 per page. Differs
 * knowingly: a video's 263/s is reported wholly as VIDEO (the service's own split of its audio
 * share is not known), and mediaResolution scales the per-frame and per-page image part.
 */
import type { MediaModality, MediaResolution, VideoMetadata } from "@/lib/gemini/types";
import type { ProbedMedia } from "@/lib/engine/media/probe";

export const IMAGE_TOKENS = 258;
export const LOW_RESOLUTION_IMAGE_TOKENS = 64;
export const MEDIUM_RESOLUTION_IMAGE_TOKENS = 256;
export const AUDIO_TOKENS_PER_SECOND = 32;
/** What a video second costs beyond its frame's image tokens at 1 fps (263 - 258). */
export const VIDEO_EXTRA_TOKENS_PER_FRAME = 5;

/** Tokens of one image (or video frame, or PDF page) at a media resolution. */
export function imageTokens(resolution?: MediaResolution): number {
  switch (resolution) {
    case "MEDIA_RESOLUTION_LOW":
      return LOW_RESOLUTION_IMAGE_TOKENS;
    case "MEDIA_RESOLUTION_MEDIUM":
    case "MEDIA_RESOLUTION_HIGH":
      return MEDIUM_RESOLUTION_IMAGE_TOKENS;
    default:
      return IMAGE_TOKENS;
  }
}

/** Seconds of a wire duration such as "12.5s"; undefined when absent or malformed. */
export function durationSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d{1,9})?)s$/.exec(value.trim());
  return match ? Number(match[1]) : undefined;
}

/**
 * Tokens and modality of a probed non-text medium. Text media are counted with the
 * tokenizer by the caller. Video honours `videoMetadata` clipping and fps.
 */
export function mediaTokenCount(
  media: ProbedMedia,
  resolution?: MediaResolution,
  videoMetadata?: VideoMetadata,
): { modality: MediaModality; tokens: number } {
  switch (media.kind) {
    case "image":
      return { modality: "IMAGE", tokens: imageTokens(resolution) };
    case "document":
      return { modality: "DOCUMENT", tokens: (media.pages ?? 1) * imageTokens(resolution) };
    case "audio":
      return {
        modality: "AUDIO",
        tokens: Math.ceil((media.durationSeconds ?? 0) * AUDIO_TOKENS_PER_SECOND - 1e-9),
      };
    case "video": {
      const total = media.durationSeconds ?? 0;
      const start = Math.min(total, durationSeconds(videoMetadata?.startOffset) ?? 0);
      const end = Math.min(total, durationSeconds(videoMetadata?.endOffset) ?? total);
      const seconds = Math.max(0, end - start);
      const fps = videoMetadata?.fps && videoMetadata.fps > 0 ? videoMetadata.fps : 1;
      const frames = Math.max(1, Math.ceil(seconds * fps - 1e-9));
      return {
        modality: "VIDEO",
        tokens: frames * (imageTokens(resolution) + VIDEO_EXTRA_TOKENS_PER_FRAME),
      };
    }
    case "text":
      throw new Error("text media are counted with the tokenizer");
  }
}
