import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCountTokensRequest, readGenerateContentRequest } from "@/lib/gemini/validate";
import { readBatchGenerateContentRequest } from "@/lib/gemini/validate-batch";
import { parseCachedContentCreate } from "@/lib/gemini/validate-caches";
import { tempData, type TempData } from "@/lib/testing/engine-files";
import { checkReferences } from "./request-references";

let data: TempData;
const HELLO = [{ role: "user", parts: [{ text: "hi" }] }];
const check = (ownerId: string) => ({
  ownerId,
  ownership: data.stores.ownership,
  upstreamBaseUrl: "https://upstream.example",
});
const generate = (body: unknown) => ({
  operation: "generateContent" as const,
  request: readGenerateContentRequest(body),
});

beforeAll(async () => {
  data = await tempData();
  await data.stores.ownership.record("file", "files/alicefile", "key:alice");
  await data.stores.ownership.record("cachedContent", "cachedContents/alicecache", "key:alice");
  await data.stores.ownership.record("fileSearchStore", "fileSearchStores/alicestore", "key:alice");
});

afterAll(async () => {
  await data.cleanup();
});

describe("checkReferences", () => {
  it("writes one's own file references, in every spelling and place, as the upstream's URI", async () => {
    const input = generate({
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
      system_instruction: { parts: { file_data: { file_uri: "files/alicefile" } } },
      cachedContent: "cachedContents/alicecache",
    });
    await checkReferences(input, undefined, check("key:alice"));
    const uri = "https://upstream.example/v1beta/files/alicefile";
    expect(input.request.contents[0]!.parts).toEqual([
      { fileData: { fileUri: uri } },
      { fileData: { fileUri: uri, mimeType: "text/plain" } },
    ]);
    expect(input.request.systemInstruction!.parts).toEqual([{ fileData: { fileUri: uri } }]);
  });

  it("refuses another's file or cache, however it is spelled or nested", async () => {
    const fileDenied = {
      httpStatus: 403,
      message: "You do not have permission to access the File alicefile or it may not exist.",
    };
    await expect(
      checkReferences(
        generate({ contents: { parts: { fileData: { fileUri: "alicefile" } } } }),
        undefined,
        check("key:bob"),
      ),
    ).rejects.toMatchObject(fileDenied);
    await expect(
      checkReferences(
        {
          operation: "countTokens",
          request: readCountTokensRequest({
            generate_content_request: {
              contents: [{ parts: [{ file_data: { file_uri: "x/files%2Falicefile" } }] }],
            },
          }),
        },
        undefined,
        check("key:bob"),
      ),
    ).rejects.toMatchObject(fileDenied);
    for (const name of [
      "cachedContents/alicecache",
      " cachedContents/alicecache ",
      "cachedContents/ALICECACHE",
      "alicecache",
    ]) {
      await expect(
        checkReferences(generate({ cached_content: name }), undefined, check("key:bob")),
        name,
      ).rejects.toMatchObject({
        httpStatus: 403,
        message: "CachedContent not found (or permission denied)",
      });
    }
  });

  it("refuses another's file search store in every operation that names one, and passes one's own", async () => {
    const tools = [{ file_search: { file_search_store_names: "fileSearchStores/alicestore" } }];
    const storeDenied = {
      httpStatus: 403,
      rpcStatus: "PERMISSION_DENIED",
      message: "FileSearchStore not found (or permission denied)",
    };
    const inputs = () => [
      generate({ contents: HELLO, tools }),
      {
        operation: "countTokens" as const,
        request: readCountTokensRequest({
          generateContentRequest: { model: "models/gemini-2.5-flash", contents: HELLO, tools },
        }),
      },
      {
        operation: "createCachedContent" as const,
        request: parseCachedContentCreate({
          model: "models/gemini-2.5-flash",
          contents: HELLO,
          tools,
        }),
      },
      {
        operation: "batchGenerateContent" as const,
        request: readBatchGenerateContentRequest({
          batch: {
            inputConfig: { requests: { requests: [{ request: { contents: HELLO, tools } }] } },
          },
        }),
      },
    ];
    for (const input of inputs())
      await expect(
        checkReferences(input, undefined, check("key:bob")),
        input.operation,
      ).rejects.toMatchObject(storeDenied);
    for (const name of [
      "alicestore",
      " fileSearchStores/alicestore",
      "fileSearchStores/ALICESTORE",
    ])
      await expect(
        checkReferences(
          generate({ contents: HELLO, tools: [{ fileSearch: { fileSearchStoreNames: [name] } }] }),
          undefined,
          check("key:alice"),
        ),
        name,
      ).rejects.toMatchObject(storeDenied);
    for (const input of inputs()) {
      const { named } = await checkReferences(input, undefined, check("key:alice"));
      expect(named, input.operation).toEqual([
        { kind: "fileSearchStore", name: "fileSearchStores/alicestore" },
      ]);
    }
  });

  it("leaves URIs that are not files of the API alone, except on the upstream's own origin", async () => {
    const input = generate({
      contents: [
        { parts: [{ fileData: { fileUri: "https://www.youtube.com/watch?v=9hE5-98ZeCg" } }] },
      ],
    });
    await checkReferences(input, undefined, check("key:bob"));
    expect(input.request.contents[0]!.parts[0]!.fileData!.fileUri).toBe(
      "https://www.youtube.com/watch?v=9hE5-98ZeCg",
    );
    await expect(
      checkReferences(
        generate({
          contents: [
            { parts: [{ fileData: { fileUri: "https://upstream.example/v1beta/Files" } }] },
          ],
        }),
        undefined,
        check("key:bob"),
      ),
    ).rejects.toMatchObject({ httpStatus: 403 });
  });
});
