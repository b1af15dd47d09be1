import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempData, type TempData } from "@/lib/testing/engine-files";
import { withOwnersLoaded } from "../persistence/ownership";
import { checkReferences, fileIdOfUri } from "./request-references";

let data: TempData;

/** The body checked for `ownerId` as the gateway checks it: owners read once, then the walk. */
function checked(body: unknown, ownerId: string): Promise<unknown> {
  return withOwnersLoaded(data.stores.ownership, (ownership) =>
    checkReferences(body, { ownerId, ownership, upstreamBaseUrl: "https://upstream.example" }),
  );
}

beforeAll(async () => {
  data = await tempData();
  await data.stores.ownership.record("file", "files/alicefile", "key:alice");
  await data.stores.ownership.record("cachedContent", "cachedContents/alicecache", "key:alice");
});

afterAll(async () => {
  await data.cleanup();
});

describe("fileIdOfUri", () => {
  it("finds file ids in URIs, names and bare ids, and nothing in other URIs", async () => {
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
  it("rewrites one's own file references in every spelling and place to the upstream's URI", async () => {
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
    const result = (await checked(body, "key:alice")) as typeof body;
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
    const single = (await checked(
      { contents: { parts: [{ fileData: { fileUri: "files/alicefile" } }] } },
      "key:alice",
    )) as { contents: { parts: unknown[] } };
    expect(single.contents.parts[0]).toEqual({
      fileData: { fileUri: "https://upstream.example/v1beta/files/alicefile" },
    });
  });

  it("refuses another's file or cache, however it is spelled or nested", async () => {
    const fileDenied = {
      httpStatus: 403,
      message: "You do not have permission to access the File alicefile or it may not exist.",
    };
    await expect(
      checked({ contents: [{ parts: [{ fileData: { fileUri: "alicefile" } }] }] }, "key:bob"),
    ).rejects.toThrow(expect.objectContaining(fileDenied));
    await expect(
      checked(
        {
          generate_content_request: {
            contents: [{ parts: [{ file_data: { file_uri: "x/files/alicefile" } }] }],
          },
        },
        "key:bob",
      ),
    ).rejects.toThrow(expect.objectContaining(fileDenied));
    for (const name of [
      "cachedContents/alicecache",
      " cachedContents/alicecache ",
      "cachedContents/ALICECACHE",
      "alicecache",
    ]) {
      await expect(checked({ cached_content: name }, "key:bob"), name).rejects.toThrow(
        expect.objectContaining({
          httpStatus: 403,
          message: "CachedContent not found (or permission denied)",
        }),
      );
    }
    await expect(
      checked(
        { generateContentRequest: { cachedContent: "cachedContents/alicecache" } },
        "key:bob",
      ),
    ).rejects.toThrow(expect.objectContaining({ httpStatus: 403 }));
  });

  it("leaves URIs that are not files of the API alone", async () => {
    const body = {
      contents: [
        { parts: [{ fileData: { fileUri: "https://www.youtube.com/watch?v=9hE5-98ZeCg" } }] },
      ],
    };
    expect(await checked(body, "key:bob")).toEqual(body);
  });
});
