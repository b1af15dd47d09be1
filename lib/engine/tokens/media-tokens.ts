/**
 * Token cost of media per model family (api-notes §4; the rules and figures are in the
 * catalog's `promptTokens.media` and lib/engine/README.md): pictures (images, PDF pages, video
 * frames) at a fixed cost, as a grid of the picture's aspect ratio or as tiles of its size,
 * audio per second, video as frames plus its sound. Differs knowingly: a medium at an outside
 * URL is not fetched, so it counts as one square picture or no time at all.
 */
import type { MediaModality, MediaResolution, ModalityTokenCount } from "@/lib/gemini/types";
import type { PartMediaResolution, VideoMetadata } from "@/lib/gemini/types";
import type {
  MediaResolutionKey,
  MediaTokenRules,
  PictureCost,
  TileRule,
} from "@/lib/gemini/prompt-token-rules";
import type { ProbedMedia } from "@/lib/engine/media/probe";

/** Rounding slack: a 4 s clip at 1 fps is 4 frames, not 4.000000001. */
const EPSILON = 1e-9;

/** The resolution a part is read at: its own level (Gemini 3) over the request's. */
export function resolutionKey(
  requested?: MediaResolution,
  part?: PartMediaResolution,
): MediaResolutionKey {
  const level =
    part?.level && part.level !== "MEDIA_RESOLUTION_UNSPECIFIED" ? part.level : requested;
  switch (level) {
    case "MEDIA_RESOLUTION_LOW":
      return "low";
    case "MEDIA_RESOLUTION_MEDIUM":
      return "medium";
    case "MEDIA_RESOLUTION_HIGH":
      return "high";
    case "MEDIA_RESOLUTION_ULTRA_HIGH":
      return "ultraHigh";
    default:
      return "default";
  }
}

/**
 * Tokens of one picture of `width` × `height` (pixels; PDF pages in points). A grid scales the
 * picture to hold at most the resolution's tokens, columns and rows rounded down (only the
 * aspect ratio matters); tiles cut it by its size. Without dimensions it is square (one tile).
 */
export function pictureTokens(
  cost: PictureCost,
  resolution: MediaResolutionKey,
  width?: number,
  height?: number,
): number {
  const table = "fixed" in cost ? cost.fixed : "grid" in cost ? cost.grid : cost.tiles.cost;
  const budget =
    table[resolution] ?? (resolution === "ultraHigh" ? table.high : undefined) ?? table.default;
  if ("fixed" in cost) return budget;
  const sized = width && height && width > 0 && height > 0;
  if ("tiles" in cost) return budget * (sized ? tileCount(cost.tiles, width, height) : 1);
  const [across, down] = sized ? [width, height] : [1, 1];
  const scale = Math.sqrt(budget / (across * down));
  const rows = Math.max(1, Math.min(budget, Math.floor(down * scale + EPSILON)));
  const columns = Math.max(
    1,
    Math.min(Math.floor(budget / rows), Math.floor(across * scale + EPSILON)),
  );
  return rows * columns;
}

/** How many tiles a picture is cut into (499 × 313 by 256-pixel tiles: 2 × 2 + 1 = 5). */
export function tileCount(rule: TileRule, width: number, height: number): number {
  if (width <= rule.singleUpTo && height <= rule.singleUpTo) return 1;
  const side = Math.min(
    rule.maxTile,
    Math.max(rule.minTile, Math.floor(Math.min(width, height) / rule.shortSideDivisor)),
  );
  return Math.ceil(width / side) * Math.ceil(height / side) + rule.extraTiles;
}

/**
 * Audio tokens of a clip: floor(seconds × rate) + 1 (a 4 s clip at 32 a second is 129), or
 * rate × whole seconds where the family counts those only (0.97 s is 0).
 */
export function audioTokens(seconds: number, rules: MediaTokenRules): number {
  const duration = Math.max(0, seconds);
  if (rules.audioWholeSeconds) return Math.floor(duration + EPSILON) * rules.audioTokensPerSecond;
  return Math.floor(duration * rules.audioTokensPerSecond + EPSILON) + 1;
}

/** Seconds of a wire duration such as "12.5s"; undefined when absent or malformed. */
export function durationSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d{1,9})?)s$/.exec(value.trim());
  return match ? Number(match[1]) : undefined;
}

/**
 * Tokens of a probed non-text medium, per modality (a video may count VIDEO and AUDIO). Text
 * media are counted with the tokenizer by the caller. Video honours `videoMetadata` clipping
 * and fps.
 */
export function mediaTokenCounts(
  media: ProbedMedia,
  rules: MediaTokenRules,
  resolution: MediaResolutionKey,
  videoMetadata?: VideoMetadata,
  returnedByFunction = false,
): ModalityTokenCount[] {
  const count = (modality: MediaModality, tokenCount: number): ModalityTokenCount => ({
    modality,
    tokenCount,
  });
  switch (media.kind) {
    case "image":
      return [count("IMAGE", pictureTokens(rules.image, resolution, media.width, media.height))];
    case "document": {
      const pages = media.pageSizes ?? Array.from({ length: media.pages ?? 1 }, () => undefined);
      const asImages = returnedByFunction && rules.returnedPagesAsImages;
      const cost = asImages ? rules.image : rules.documentPage;
      const tokens = pages.reduce(
        (sum, page) => sum + pictureTokens(cost, resolution, page?.width, page?.height),
        0,
      );
      return [count(asImages ? "IMAGE" : "DOCUMENT", tokens)];
    }
    case "audio": {
      // No duration: a medium at an outside URL, which is not fetched.
      if (media.durationSeconds === undefined) return [count("AUDIO", 0)];
      const padding = rules.audioGapless ? (media.paddingSeconds ?? 0) : 0;
      return [count("AUDIO", audioTokens(media.durationSeconds - padding, rules))];
    }
    case "video": {
      const total = media.durationSeconds ?? 0;
      const start = Math.min(total, durationSeconds(videoMetadata?.startOffset) ?? 0);
      const end = Math.min(total, durationSeconds(videoMetadata?.endOffset) ?? total);
      const seconds = Math.max(0, end - start);
      const fps = videoMetadata?.fps && videoMetadata.fps > 0 ? videoMetadata.fps : 1;
      const frames =
        rules.videoFrames === "inclusive"
          ? Math.floor(seconds * fps + EPSILON) + 1
          : Math.max(1, Math.ceil(seconds * fps - EPSILON));
      const frame =
        pictureTokens(rules.videoFrame, resolution, media.width, media.height) +
        rules.videoFrameExtra;
      const counts = [count("VIDEO", frames * frame)];
      const sound =
        rules.videoAudio === "duration" || (rules.videoAudio === "track" && media.hasAudio);
      if (sound) counts.push(count("AUDIO", audioTokens(seconds, rules)));
      return counts;
    }
    case "text":
      throw new Error("text media are counted with the tokenizer");
  }
}
