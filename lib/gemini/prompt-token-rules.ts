/**
 * How the service counts a model family's prompt beyond its text (measured on recorded
 * traffic; lib/engine/README.md gives the figures): how function declarations, calls and
 * responses are written into the prompt, and what media cost. Data only; the local engine's
 * catalog (lib/engine/catalog/models.json) holds one per model family.
 */

/**
 * How tools and function parts become prompt text.
 * - `fields` (1.x, 2.0): only the values count, each string field alone (names, descriptions,
 *   types, enum values, required names, property and argument names), any other scalar as one
 *   token; JSON Schema variants (`parametersJsonSchema`, `responseJsonSchema`) do not count.
 * - `markup` (3.x): one text per declaration, call and response, written as
 *   `declaration:name{description:<escape>…<escape>,parameters:{…}}` between marker tokens
 *   that count one each (the notation Gemma's function-calling models read).
 * - `python` (2.5): a declaration is a Python signature with its docstring
 *   (`def name(city: str, days: int | None = None) -> dict:`), its response schema in the
 *   markup; a call is the code that makes it (`print(default_api.name(city="Paris"))`); a
 *   response is written in the markup.
 */
export type FunctionTextFormat = "fields" | "markup" | "python";

/** The resolutions a medium's cost depends on: the request's, or a part's own level. */
export type MediaResolutionKey = "default" | "low" | "medium" | "high" | "ultraHigh";

/** A number per resolution; a missing level falls back to HIGH, then to the default. */
export type ResolutionTable = Partial<Record<MediaResolutionKey, number>> & { default: number };

/**
 * Square tiles cut from a picture, each costing the same (Gemini 2.0): a picture no larger than
 * `singleUpTo` on either side is one tile; a larger one is cut into tiles whose side is its
 * shorter side divided by `shortSideDivisor` (whole pixels, kept within `minTile`..`maxTile`),
 * columns and rows rounded up, plus `extraTiles` (the whole picture once more).
 */
export interface TileRule {
  /** Tokens of one tile per resolution. */
  cost: ResolutionTable;
  singleUpTo: number;
  shortSideDivisor: number;
  minTile: number;
  maxTile: number;
  extraTiles: number;
}

/**
 * What one picture costs (an image, a PDF page, a video frame) per resolution: a `fixed`
 * number whatever its size, a `grid` of tokens of the picture's aspect ratio holding at
 * most that many (columns and rows each rounded down), or `tiles` of its size.
 */
export type PictureCost =
  { fixed: ResolutionTable } | { grid: ResolutionTable } | { tiles: TileRule };

export interface MediaTokenRules {
  image: PictureCost;
  documentPage: PictureCost;
  videoFrame: PictureCost;
  /** Tokens a video frame adds beyond its picture (its timestamp). */
  videoFrameExtra: number;
  /**
   * Frames of a video at its fps: one per period started (`ceil`), or one at every period
   * boundary from the start to the end inclusive (`inclusive`: a 4 s clip at 1 fps is 5).
   */
  videoFrames: "ceil" | "inclusive";
  /**
   * A video's sound: counted over its whole duration (`duration`), only when it has a track
   * (`track`), or not apart from its frames (`none`).
   */
  videoAudio: "duration" | "track" | "none";
  /** Audio tokens per second: a clip of d seconds is floor(d × rate) + 1. */
  audioTokensPerSecond: number;
  /**
   * Audio counts only its whole seconds, `rate` tokens each (floor(d) × rate): a clip shorter
   * than a second counts nothing (2.0). Absent: floor(d × rate) + 1.
   */
  audioWholeSeconds?: boolean;
  /** Whether audio is measured without the encoder delay and padding an MP3's LAME tag names. */
  audioGapless: boolean;
  /**
   * A document a function returned (`functionResponse.parts`) counts each page as an image (the
   * image cost, modality IMAGE) rather than as a document page (Gemini 3). Absent: as a document.
   */
  returnedPagesAsImages?: boolean;
}

/**
 * What a thought signature sent back in history adds, in the current turn only (the Contents
 * from the last user Content that holds more than function responses; an earlier turn's
 * signatures add nothing): `thinking`, the thinking it stands for (3.x); `none` (1.x and 2.0,
 * which make none; 2.5, whose calls count one token each whether signed or not, see the `python`
 * notation).
 */
export type ThoughtSignatureCost = "thinking" | "none";

export interface PromptTokenRules {
  functionText: FunctionTextFormat;
  thoughtSignatures: ThoughtSignatureCost;
  /** Whether `generationConfig.responseSchema` is part of the counted prompt. */
  responseSchema: boolean;
  media: MediaTokenRules;
}
