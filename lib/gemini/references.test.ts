import { describe, expect, it } from "vitest";
import { referencePlaces, requestReferences } from "./references";
import { parseCachedContentCreate } from "./validate-caches";
import { readCountTokensRequest, readGenerateContentRequest } from "./validate";

const describePlaces = (operation: Parameters<typeof referencePlaces>[0]) =>
  referencePlaces(operation).map(
    (place) =>
      `${place.segments.map((segment) => segment.field + (segment.list ? "[]" : "")).join(".")} ${place.kind}`,
  );

describe("referencePlaces", () => {
  it("finds every field of the request types that names a file, a cached content or a file search store", () => {
    // functionResponse.parts: media a function returned, sent back by the SDKs.
    expect(describePlaces("generateContent")).toEqual([
      "contents[].parts[].fileData.fileUri file",
      "contents[].parts[].functionResponse.parts[].fileData.fileUri file",
      "tools[].fileSearch.fileSearchStoreNames[] fileSearchStore",
      "systemInstruction.parts[].fileData.fileUri file",
      "systemInstruction.parts[].functionResponse.parts[].fileData.fileUri file",
      "cachedContent cachedContent",
    ]);
    expect(describePlaces("countTokens")).toEqual([
      "contents[].parts[].fileData.fileUri file",
      "contents[].parts[].functionResponse.parts[].fileData.fileUri file",
      "generateContentRequest.contents[].parts[].fileData.fileUri file",
      "generateContentRequest.contents[].parts[].functionResponse.parts[].fileData.fileUri file",
      "generateContentRequest.tools[].fileSearch.fileSearchStoreNames[] fileSearchStore",
      "generateContentRequest.systemInstruction.parts[].fileData.fileUri file",
      "generateContentRequest.systemInstruction.parts[].functionResponse.parts[].fileData.fileUri file",
      "generateContentRequest.cachedContent cachedContent",
    ]);
    expect(describePlaces("createCachedContent")).toEqual([
      "contents[].parts[].fileData.fileUri file",
      "contents[].parts[].functionResponse.parts[].fileData.fileUri file",
      "systemInstruction.parts[].fileData.fileUri file",
      "systemInstruction.parts[].functionResponse.parts[].fileData.fileUri file",
      "tools[].fileSearch.fileSearchStoreNames[] fileSearchStore",
    ]);
  });
});

describe("requestReferences", () => {
  it("lists each reference of a canonical request, however the body spelled it", () => {
    const request = readGenerateContentRequest({
      contents: { parts: { file_data: { file_uri: "http://studio/v1beta/files/one" } } },
      system_instruction: { parts: [{ fileData: { fileUri: " two " } }] },
      cached_content: "cachedContents/three",
    });
    expect(
      requestReferences({ operation: "generateContent", request }).map(({ kind, name, path }) => ({
        kind,
        name,
        path: path.join("."),
      })),
    ).toEqual([
      { kind: "file", name: "files/one", path: "contents.0.parts.0.fileData.fileUri" },
      { kind: "file", name: "files/two", path: "systemInstruction.parts.0.fileData.fileUri" },
      { kind: "cachedContent", name: "cachedContents/three", path: "cachedContent" },
    ]);
    const counted = readCountTokensRequest({
      generate_content_request: {
        model: "models/x",
        contents: [{ parts: [{ text: "a" }, { fileData: { fileUri: "files/four" } }] }],
        cachedContent: "cachedContents/five",
      },
    });
    expect(
      requestReferences({ operation: "countTokens", request: counted }).map((item) => item.name),
    ).toEqual(["files/four", "cachedContents/five"]);
    const cache = parseCachedContentCreate({
      model: "models/x",
      contents: [
        { parts: [{ file_data: { file_uri: "https://upstream/v1beta/files/six?alt=media" } }] },
      ],
    });
    expect(
      requestReferences({ operation: "createCachedContent", request: cache }).map(
        (item) => item.name,
      ),
    ).toEqual(["files/six"]);
  });

  it("replaces a value in place", () => {
    const request = readGenerateContentRequest({
      contents: [{ parts: [{ fileData: { fileUri: "files/one" } }] }],
    });
    for (const reference of requestReferences({ operation: "generateContent", request }))
      reference.replace(`https://upstream/v1beta/${reference.name}`);
    expect(request.contents[0]!.parts[0]!.fileData!.fileUri).toBe(
      "https://upstream/v1beta/files/one",
    );
  });
});

describe("fileNameOfUri", () => {
  it("reads every spelling of a file of the API, and nothing else", async () => {
    const { fileNameOfUri } = await import("./references");
    for (const spelling of [
      "files/abc",
      "abc",
      " files/abc ",
      "http://127.0.0.1:3000/v1beta/files/abc",
      "https://generativelanguage.googleapis.com/v1beta/files/abc?alt=media",
      "https://studio.example/v1beta/files%2Fabc",
      "https://studio.example/v1beta/x/../files/abc",
      "https://studio.example/v1beta/FILES/abc#part",
      "v1beta/files/abc",
    ])
      expect(fileNameOfUri(spelling), spelling).toBe("files/abc");
    for (const other of [
      "https://www.youtube.com/watch?v=9hE5-98ZeCg",
      "gs://bucket/files/abc",
      "https://example.com/report.pdf",
      "",
    ])
      expect(fileNameOfUri(other), other).toBeNull();
  });
});

describe("cachedContentNameOfUrl", () => {
  it("reads a cached content's URL on any host, as for files, and nothing else", async () => {
    const { cachedContentNameOfUrl } = await import("./references");
    for (const url of [
      "http://127.0.0.1:3000/v1beta/cachedContents/abc",
      "https://studio.example/v1/cachedContents/abc?alt=json",
      "https://generativelanguage.googleapis.com/v1beta/cachedcontents/abc",
      "https://studio.example/v1beta/cachedContents%2Fabc",
      " https://studio.example/v1beta/cachedContents/abc#top ",
    ])
      expect(cachedContentNameOfUrl(url), url).toBe("cachedContents/abc");
    for (const other of [
      "cachedContents/abc",
      "https://studio.example/v1beta/cachedContents",
      "https://studio.example/v1beta/files/abc",
      "gs://bucket/cachedContents/abc",
      "",
    ])
      expect(cachedContentNameOfUrl(other), other).toBeNull();
  });
});
