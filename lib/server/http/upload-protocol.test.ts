import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import {
  readByteCount,
  readUploadCommands,
  readUploadHeader,
  readUploadOffset,
  requestOrigin,
  uploadAnswerHeaders,
  uploadSessionUrl,
} from "./upload-protocol";

function catchApiError(work: () => unknown): ApiError {
  try {
    work();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

describe("upload protocol headers", () => {
  it("reads either spelling, and refuses the two when they disagree", () => {
    expect(readUploadHeader(new Headers({ "X-Svc-Upload-Offset": "5" }), "Offset")).toBe("5");
    expect(readUploadHeader(new Headers({ "x-goog-upload-offset": " 7 " }), "Offset")).toBe("7");
    expect(
      readUploadHeader(
        new Headers({ "X-Goog-Upload-Offset": "7", "X-Svc-Upload-Offset": "7" }),
        "Offset",
      ),
    ).toBe("7");
    expect(readUploadHeader(new Headers(), "Offset")).toBeUndefined();
    const disagree = catchApiError(() =>
      readUploadHeader(
        new Headers({ "X-Goog-Upload-Offset": "7", "X-Svc-Upload-Offset": "8" }),
        "Offset",
      ),
    );
    expect(disagree.httpStatus).toBe(400);
    expect(disagree.message).toContain("disagree");
  });

  it("splits commands and refuses unknown or mixed ones", () => {
    expect([
      ...readUploadCommands(new Headers({ "X-Goog-Upload-Command": "upload, finalize" })),
    ]).toEqual(["upload", "finalize"]);
    expect([...readUploadCommands(new Headers({ "X-Svc-Upload-Command": "Query" }))]).toEqual([
      "query",
    ]);
    expect(catchApiError(() => readUploadCommands(new Headers())).message).toContain("is required");
    expect(
      catchApiError(() =>
        readUploadCommands(new Headers({ "X-Goog-Upload-Command": "upload, shred" })),
      ).message,
    ).toContain("not understood");
    expect(
      catchApiError(() =>
        readUploadCommands(new Headers({ "X-Goog-Upload-Command": "query, upload" })),
      ).message,
    ).toContain("alone");
  });

  it("reads byte counts strictly", () => {
    expect(readUploadOffset(new Headers({ "X-Goog-Upload-Offset": "8388608" }))).toBe(8_388_608);
    expect(readUploadOffset(new Headers())).toBeUndefined();
    for (const bad of ["-1", "1.5", "1e3", "0x10", "", "12 34"]) {
      expect(catchApiError(() => readByteCount(bad, "X-Goog-Upload-Offset")).httpStatus).toBe(400);
    }
  });

  it("answers in both spellings", () => {
    const headers = uploadAnswerHeaders({
      status: "active",
      url: "http://h/u?upload_id=x",
      chunkGranularity: 8_388_608,
      sizeReceived: 10,
    });
    for (const prefix of ["x-goog-upload-", "x-svc-upload-"]) {
      expect(headers.get(`${prefix}status`)).toBe("active");
      expect(headers.get(`${prefix}url`)).toBe("http://h/u?upload_id=x");
      expect(headers.get(`${prefix}chunk-granularity`)).toBe("8388608");
      expect(headers.get(`${prefix}size-received`)).toBe("10");
      // As the service's start answer: the URL again as the control URL, and the final body's type.
      expect(headers.get(`${prefix}control-url`)).toBe("http://h/u?upload_id=x");
      expect(headers.get(`${prefix}header-content-type`)).toBe("application/json; charset=UTF-8");
    }
    const final = uploadAnswerHeaders({ status: "final" });
    expect(final.get("x-goog-upload-control-url")).toBeNull();
    expect(final.get("x-goog-upload-size-received")).toBeNull();
  });

  it("builds URLs from the host the client used, never from a malformed one", () => {
    const request = new Request("http://localhost:3000/upload/v1/files?key=k", {
      headers: { host: "127.0.0.1:4123" },
    });
    expect(requestOrigin(request)).toBe("http://127.0.0.1:4123");
    expect(uploadSessionUrl(request, "abc_-1")).toBe(
      "http://127.0.0.1:4123/upload/v1/files?upload_id=abc_-1&upload_protocol=resumable",
    );
    const proxied = new Request("http://localhost:3000/v1beta/files", {
      headers: {
        host: "internal:3000",
        "x-forwarded-host": "studio.example.com",
        "x-forwarded-proto": "https",
      },
    });
    expect(requestOrigin(proxied)).toBe("https://studio.example.com");
    const hostile = new Request("http://localhost:3000/v1beta/files", {
      headers: { host: "evil.example/path?x=" },
    });
    expect(requestOrigin(hostile)).toBe("http://localhost:3000");
  });
});
