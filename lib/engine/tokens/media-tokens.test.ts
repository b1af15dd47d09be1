// Media costs by rule: fixed and grid pictures, audio per second, video frames and sound, with
// rules written out here so the tests pin the rules, not the catalog's figures.
import { describe, expect, it } from "vitest";
import type { MediaTokenRules } from "@/lib/gemini/prompt-token-rules";
import type { ProbedMedia } from "@/lib/engine/media/probe";
import {
  audioTokens,
  mediaTokenCounts,
  pictureTokens,
  resolutionKey,
  tileCount,
} from "./media-tokens";

const FIXED = { fixed: { default: 258, low: 64, medium: 256, high: 256 } };
const fixedRules: MediaTokenRules = {
  image: FIXED,
  documentPage: FIXED,
  videoFrame: FIXED,
  videoFrameExtra: 5,
  videoFrames: "inclusive",
  videoAudio: "duration",
  audioTokensPerSecond: 32,
  audioGapless: false,
};
const gridRules: MediaTokenRules = {
  image: { grid: { default: 1120, low: 280, medium: 560, high: 1120, ultraHigh: 2240 } },
  documentPage: { grid: { default: 560, low: 280, high: 1120 } },
  videoFrame: { grid: { default: 70, high: 280 } },
  videoFrameExtra: 0,
  videoFrames: "ceil",
  videoAudio: "track",
  audioTokensPerSecond: 25,
  audioGapless: true,
};

const TILES = {
  tiles: {
    cost: { default: 258, low: 64, medium: 256, high: 256 },
    singleUpTo: 384,
    shortSideDivisor: 1.5,
    minTile: 256,
    maxTile: 768,
    extraTiles: 1,
  },
};
const tileRules: MediaTokenRules = {
  ...fixedRules,
  image: TILES,
  documentPage: TILES,
  videoFrameExtra: 2,
  videoFrames: "ceil",
  videoAudio: "none",
  audioWholeSeconds: true,
};

function media(kind: ProbedMedia["kind"], facts: Partial<ProbedMedia>): ProbedMedia {
  return { kind, mimeType: "x/y", sizeBytes: 1, ...facts };
}

describe("resolutionKey", () => {
  it("takes a part's own level over the request's, and the default for unspecified", () => {
    expect(resolutionKey()).toBe("default");
    expect(resolutionKey("MEDIA_RESOLUTION_UNSPECIFIED")).toBe("default");
    expect(resolutionKey("MEDIA_RESOLUTION_LOW")).toBe("low");
    expect(resolutionKey("MEDIA_RESOLUTION_LOW", { level: "MEDIA_RESOLUTION_ULTRA_HIGH" })).toBe(
      "ultraHigh",
    );
    expect(resolutionKey("MEDIA_RESOLUTION_HIGH", { level: "MEDIA_RESOLUTION_UNSPECIFIED" })).toBe(
      "high",
    );
  });
});

describe("pictureTokens", () => {
  it("charges a fixed cost whatever the size, falling back to HIGH and then the default", () => {
    expect(pictureTokens(FIXED, "default", 4000, 3000)).toBe(258);
    expect(pictureTokens(FIXED, "low", 10, 10)).toBe(64);
    expect(pictureTokens(FIXED, "ultraHigh")).toBe(256);
  });

  it("lays a grid of the picture's aspect ratio within the budget, rounding columns and rows down", () => {
    // 1600 × 900 at 1120: scale √(1120 / 1 440 000); 44.6 columns, 25.1 rows.
    expect(pictureTokens(gridRules.image, "default", 1600, 900)).toBe(44 * 25);
    expect(pictureTokens(gridRules.image, "low", 1600, 900)).toBe(22 * 12);
    // Portrait and landscape of one ratio cost the same; a square is the largest square inside.
    expect(pictureTokens(gridRules.image, "high", 900, 1600)).toBe(25 * 44);
    expect(pictureTokens(gridRules.image, "default", 16, 16)).toBe(33 * 33);
    expect(pictureTokens(gridRules.image, "default")).toBe(33 * 33);
    // A missing level falls back to HIGH, then to the default.
    expect(pictureTokens(gridRules.documentPage, "ultraHigh", 1, 1)).toBe(33 * 33);
    expect(pictureTokens(gridRules.documentPage, "medium", 1, 1)).toBe(23 * 23);
  });

  it("cuts a picture larger than the single tile into tiles of its shorter side / 1.5, plus one", () => {
    expect(tileCount(TILES.tiles, 272, 138)).toBe(1);
    expect(tileCount(TILES.tiles, 384, 384)).toBe(1);
    // 313 / 1.5 = 208, raised to 256: 2 × 2 + 1.
    expect(tileCount(TILES.tiles, 499, 313)).toBe(5);
    expect(tileCount(TILES.tiles, 313, 499)).toBe(5);
    // A US Letter page in points: 612 / 1.5 = 408 a tile, 2 × 2 + 1.
    expect(tileCount(TILES.tiles, 612, 792)).toBe(5);
    // 1380 / 1.5 = 920, lowered to 768: 3 × 2 + 1.
    expect(tileCount(TILES.tiles, 1980, 1380)).toBe(7);
    expect(tileCount(TILES.tiles, 4000, 400)).toBe(16 * 2 + 1);
    expect(pictureTokens(TILES, "default", 499, 313)).toBe(5 * 258);
    expect(pictureTokens(TILES, "low", 499, 313)).toBe(5 * 64);
    expect(pictureTokens(TILES, "default")).toBe(258);
  });

  it("never exceeds the budget on extreme aspect ratios", () => {
    const tokens = pictureTokens(gridRules.image, "default", 100_000, 1);
    expect(tokens).toBeLessThanOrEqual(1120);
    expect(tokens).toBeGreaterThan(1000);
  });
});

describe("audioTokens", () => {
  it("is floor(seconds × rate) + 1", () => {
    expect(audioTokens(4, fixedRules)).toBe(129);
    expect(audioTokens(0.74, fixedRules)).toBe(24);
    expect(audioTokens(0.74, gridRules)).toBe(19);
    expect(audioTokens(0, gridRules)).toBe(1);
  });

  it("is rate × whole seconds where the family counts those only", () => {
    expect(audioTokens(0.97, tileRules)).toBe(0);
    expect(audioTokens(1, tileRules)).toBe(32);
    expect(audioTokens(2.5, tileRules)).toBe(64);
  });
});

describe("mediaTokenCounts", () => {
  it("trims an MP3's encoder padding where the family plays audio gapless", () => {
    const mp3 = media("audio", { durationSeconds: 0.9, paddingSeconds: 0.1 });
    expect(mediaTokenCounts(mp3, fixedRules, "default")).toEqual([
      { modality: "AUDIO", tokenCount: audioTokens(0.9, fixedRules) },
    ]);
    expect(mediaTokenCounts(mp3, gridRules, "default")).toEqual([
      { modality: "AUDIO", tokenCount: audioTokens(0.8, gridRules) },
    ]);
    expect(mediaTokenCounts(media("audio", {}), gridRules, "default")).toEqual([
      { modality: "AUDIO", tokenCount: 0 },
    ]);
  });

  it("counts a PDF page by page at each page's own aspect ratio", () => {
    const pdf = media("document", {
      pages: 2,
      pageSizes: [
        { width: 612, height: 792 },
        { width: 792, height: 612 },
      ],
    });
    // 612 × 792 at 560: 20.8 columns, 26.9 rows.
    expect(mediaTokenCounts(pdf, gridRules, "default")).toEqual([
      { modality: "DOCUMENT", tokenCount: 2 * 20 * 26 },
    ]);
    expect(mediaTokenCounts(pdf, fixedRules, "default")).toEqual([
      { modality: "DOCUMENT", tokenCount: 2 * 258 },
    ]);
    expect(mediaTokenCounts(media("document", { pages: 3 }), fixedRules, "low")).toEqual([
      { modality: "DOCUMENT", tokenCount: 3 * 64 },
    ]);
  });

  it("counts video frames inclusive of the end or per second started, and its sound by the family's rule", () => {
    const silent = media("video", { durationSeconds: 4, width: 640, height: 360, hasAudio: false });
    expect(mediaTokenCounts(silent, fixedRules, "default")).toEqual([
      { modality: "VIDEO", tokenCount: 5 * 263 },
      { modality: "AUDIO", tokenCount: 129 },
    ]);
    // 640 × 360 at 70: 11.2 columns, 6.3 rows.
    expect(mediaTokenCounts(silent, gridRules, "default")).toEqual([
      { modality: "VIDEO", tokenCount: 4 * 66 },
    ]);
    const sounding = { ...silent, durationSeconds: 2.5, hasAudio: true };
    expect(mediaTokenCounts(sounding, gridRules, "default")).toEqual([
      { modality: "VIDEO", tokenCount: 3 * 66 },
      { modality: "AUDIO", tokenCount: audioTokens(2.5, gridRules) },
    ]);
    const none: MediaTokenRules = { ...fixedRules, videoFrames: "ceil", videoAudio: "none" };
    expect(mediaTokenCounts(sounding, none, "default")).toEqual([
      { modality: "VIDEO", tokenCount: 3 * 263 },
    ]);
  });

  it("counts a 2.0 video 258 + 2 a frame per second started, without sound", () => {
    const recorded = media("video", {
      durationSeconds: 4,
      width: 640,
      height: 360,
      hasAudio: false,
    });
    expect(mediaTokenCounts(recorded, tileRules, "default")).toEqual([
      { modality: "VIDEO", tokenCount: 1040 },
    ]);
    const sounding = media("video", { durationSeconds: 4.2, hasAudio: true });
    expect(mediaTokenCounts(sounding, tileRules, "default")).toEqual([
      { modality: "VIDEO", tokenCount: 5 * 260 },
    ]);
    expect(
      mediaTokenCounts(media("audio", { durationSeconds: 0.891625 }), tileRules, "default"),
    ).toEqual([{ modality: "AUDIO", tokenCount: 0 }]);
  });

  it("honours clipping and fps", () => {
    const video = media("video", { durationSeconds: 10 });
    const metadata = { startOffset: "1s", endOffset: "2.5s", fps: 2 };
    expect(
      mediaTokenCounts(video, { ...fixedRules, videoAudio: "none" }, "default", metadata),
    ).toEqual([{ modality: "VIDEO", tokenCount: 4 * 263 }]);
    expect(mediaTokenCounts(video, gridRules, "default", metadata)).toEqual([
      { modality: "VIDEO", tokenCount: 3 * 8 * 8 },
    ]);
  });
});
