import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/database";
import { OwnershipStore } from "../persistence/ownership";
import { checkReferences, fileIdOfUri } from "./request-references";

let ownership: OwnershipStore;
const check = (ownerId: string) => ({
  ownerId,
  ownership,
  upstreamBaseUrl: "https://upstream.example",
});

beforeAll(() => {
  ownership = new OwnershipStore(
    openDatabase(fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-references-"))),
  );
  ownership.record("file", "files/alicefile", "key:alice");
  ownership.record("cachedContent", "cachedContents/alicecache", "key:alice");
});

describe("fileIdOfUri", () => {
  it("finds file ids in URIs, names and bare ids, and nothing in other URIs", () => {
    expect(fileIdOfUri("http://studio.example/v1beta/files/abc123")).toBe("abc123");
    expect(
      fileIdOfUri("https://generativelanguage.googleapis.com/v1beta/files/abc123?alt=media"),
    ).toBe("abc123");
    expect(fileIdOfUri("files/abc123")).toBe("abc123");
    expect(fileIdOfUri(" abc123 ")).toBe("abc123");
    expect(fileIdOfUri("https://www.youtube.com/watch?v=9hE5-98ZeCg")).toBeNull();
    expect(fileIdOfUri("gs://bucket/object.mp4")).toBeNull();
  });
});

describe("checkReferences", () => {
  it("rewrites one's own file references in every spelling and place to the upstream's URI", () => {
    const body = {
      contents: [
        {
          parts: [
            { file_data: { file_uri: "alicefile" } },
            {
              fileData: { fileUri: "http://studio/v1beta/files/alicefile", mimeType: "text/plain" },
            },
          ],
        },
      ],
      system_instruction: { parts: [{ text: "be brief" }] },
      cachedContent: "cachedContents/alicecache",
    };
    const result = checkReferences(body, check("key:alice")) as typeof body;
    expect(result.contents[0]!.parts[0]).toEqual({
      file_data: { file_uri: "https://upstream.example/v1beta/files/alicefile" },
    });
    expect(result.contents[0]!.parts[1]).toEqual({
      fileData: {
        fileUri: "https://upstream.example/v1beta/files/alicefile",
        mimeType: "text/plain",
      },
    });
    expect(body.contents[0]!.parts[0]).toEqual({ file_data: { file_uri: "alicefile" } });
    const single = checkReferences(
      { contents: { parts: [{ fileData: { fileUri: "files/alicefile" } }] } },
      check("key:alice"),
    ) as { contents: { parts: unknown[] } };
    expect(single.contents.parts[0]).toEqual({
      fileData: { fileUri: "https://upstream.example/v1beta/files/alicefile" },
    });
  });

  it("refuses another's file or cache, however it is spelled or nested", () => {
    const fileDenied = {
      httpStatus: 403,
      message: "You do not have permission to access the File alicefile or it may not exist.",
    };
    expect(() =>
      checkReferences(
        { contents: [{ parts: [{ fileData: { fileUri: "alicefile" } }] }] },
        check("key:bob"),
      ),
    ).toThrow(expect.objectContaining(fileDenied));
    expect(() =>
      checkReferences(
        {
          generate_content_request: {
            contents: [{ parts: [{ file_data: { file_uri: "x/files/alicefile" } }] }],
          },
        },
        check("key:bob"),
      ),
    ).toThrow(expect.objectContaining(fileDenied));
    for (const name of [
      "cachedContents/alicecache",
      " cachedContents/alicecache ",
      "cachedContents/ALICECACHE",
      "alicecache",
    ]) {
      expect(() => checkReferences({ cached_content: name }, check("key:bob")), name).toThrow(
        expect.objectContaining({
          httpStatus: 403,
          message: "CachedContent not found (or permission denied)",
        }),
      );
    }
    expect(() =>
      checkReferences(
        { generateContentRequest: { cachedContent: "cachedContents/alicecache" } },
        check("key:bob"),
      ),
    ).toThrow(expect.objectContaining({ httpStatus: 403 }));
  });

  it("leaves URIs that are not files of the API alone", () => {
    const body = {
      contents: [
        { parts: [{ fileData: { fileUri: "https://www.youtube.com/watch?v=9hE5-98ZeCg" } }] },
      ],
    };
    expect(checkReferences(body, check("key:bob"))).toEqual(body);
  });
});
