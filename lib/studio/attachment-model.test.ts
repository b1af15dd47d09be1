import { describe, expect, it } from "vitest";
import type { File as WireFile } from "@/lib/gemini/types";
import {
  attachmentParts,
  canSendInline,
  formatBytes,
  mimeTypeOf,
  pollDelayMs,
  previewKindOf,
  sendBlockReason,
  statusOfFile,
  type Attachment,
} from "./attachment-model";

function wireFile(state: WireFile["state"], name = "files/abc"): WireFile {
  return {
    name,
    mimeType: "audio/wav",
    sizeBytes: "10",
    createTime: "2025-01-01T00:00:00Z",
    updateTime: "2025-01-01T00:00:00Z",
    expirationTime: "2025-01-03T00:00:00Z",
    uri: `http://127.0.0.1/v1beta/${name}`,
    state,
  };
}

function attachment(change: Partial<Attachment>): Attachment {
  return {
    id: Math.random().toString(36),
    scope: "new",
    displayName: "clip.wav",
    mimeType: "audio/wav",
    sizeBytes: 1000,
    status: "uploading",
    sentBytes: 0,
    preview: { kind: "audio" },
    startedAt: 0,
    ...change,
  };
}

describe("sendBlockReason", () => {
  it("is null when every attachment is ACTIVE or inline", () => {
    expect(sendBlockReason([])).toBeNull();
    expect(
      sendBlockReason([
        attachment({ status: "active", file: wireFile("ACTIVE") }),
        attachment({ status: "inline", inlineData: "AA==" }),
      ]),
    ).toBeNull();
  });

  it("says which files are uploading and which are processing", () => {
    const reason = sendBlockReason([
      attachment({ displayName: "big.bin", status: "uploading", sentBytes: 450, sizeBytes: 1000 }),
      attachment({ displayName: "clip.wav", status: "processing" }),
      attachment({ status: "active", file: wireFile("ACTIVE") }),
    ]);
    expect(reason).toBe(
      "Waiting for 2 files to become ACTIVE: big.bin (45%) is uploading; clip.wav is still processing.",
    );
  });

  it("asks to remove failed files first", () => {
    expect(
      sendBlockReason([
        attachment({ displayName: "broken.png", status: "failed" }),
        attachment({ status: "processing" }),
      ]),
    ).toBe("Remove the file that failed (broken.png) before sending.");
  });
});

describe("attachmentParts", () => {
  it("sends ACTIVE files as file_data and inline images as inline_data, skipping the rest", () => {
    const active = wireFile("ACTIVE", "files/one");
    expect(
      attachmentParts([
        attachment({ status: "active", file: active }),
        attachment({ status: "processing", file: wireFile("PROCESSING") }),
        attachment({ status: "inline", mimeType: "image/png", inlineData: "iVBO" }),
      ]),
    ).toEqual([
      { fileData: { mimeType: "audio/wav", fileUri: active.uri } },
      { inlineData: { mimeType: "image/png", data: "iVBO" } },
    ]);
  });
});

describe("small rules", () => {
  it("maps file states, types and sizes", () => {
    expect(statusOfFile(wireFile("PROCESSING"))).toBe("processing");
    expect(statusOfFile(wireFile("FAILED"))).toBe("failed");
    expect(statusOfFile(wireFile("ACTIVE"))).toBe("active");
    expect(mimeTypeOf("notes.md", "")).toBe("text/markdown");
    expect(mimeTypeOf("x.unknown", "")).toBe("application/octet-stream");
    expect(mimeTypeOf("a.png", "image/png")).toBe("image/png");
    expect(previewKindOf("application/pdf")).toBe("pdf");
    expect(previewKindOf("application/json")).toBe("text");
    expect(previewKindOf("video/mp4")).toBe("video");
    expect(canSendInline("image/png", 500_000)).toBe(true);
    expect(canSendInline("image/png", 2_000_000)).toBe(false);
    expect(canSendInline("audio/wav", 100)).toBe(false);
    expect(formatBytes(999)).toBe("999 B");
    expect(formatBytes(209_715_200)).toBe("210 MB");
    expect(formatBytes(1_500)).toBe("1.5 KB");
  });

  it("polls quickly at first and backs off to 10 s", () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(pollDelayMs)).toEqual([
      500, 1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });
});
