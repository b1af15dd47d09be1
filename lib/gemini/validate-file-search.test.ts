import { describe, expect, it } from "vitest";
import {
  checkResourceIds,
  derivedResourceId,
  parseFileSearchStoreCreate,
  parseImportFile,
  parseStoreUploadStart,
  readForce,
} from "./validate-file-search";

describe("file search bodies and names", () => {
  it("derives ids from display names as the service does (recorded)", () => {
    expect(derivedResourceId("genai-test-store", () => "fetnf75lobog")).toBe(
      "genaiteststore-fetnf75lobog",
    );
    expect(derivedResourceId("test-doc.txt", () => "khyubc7okzpz")).toBe("testdoctxt-khyubc7okzpz");
    const parts = ["fr3l0ri2so25", "a3r1ump9x821"];
    expect(derivedResourceId(undefined, () => parts.shift()!)).toBe("fr3l0ri2so25-a3r1ump9x821");
    expect(derivedResourceId("x".repeat(100), () => "r".repeat(12))).toHaveLength(40);
  });

  it("refuses store and document ids not of the service's form", () => {
    expect(checkResourceIds("fileSearchStores/abc-123/documents/doc-1")).toBe(
      "fileSearchStores/abc-123/documents/doc-1",
    );
    expect(() => checkResourceIds("fileSearchStores/_invalid_file_search_store_name")).toThrow(
      expect.objectContaining({ httpStatus: 400, rpcStatus: "INVALID_ARGUMENT" }),
    );
    expect(() => checkResourceIds("fileSearchStores/abc/documents/_bad")).toThrow(/Invalid/);
    expect(() => checkResourceIds("fileSearchStores/abc/upload/operations/_bad")).toThrow(
      /Invalid/,
    );
  });

  it("reads create, upload and import bodies in either spelling, refusing unknown fields", () => {
    expect(parseFileSearchStoreCreate({ display_name: "notes" })).toEqual({ displayName: "notes" });
    expect(
      parseStoreUploadStart({
        displayName: "a.txt",
        custom_metadata: { key: "k", string_value: "v" },
        chunkingConfig: { whiteSpaceConfig: { maxTokensPerChunk: 200 } },
      }),
    ).toEqual({
      displayName: "a.txt",
      customMetadata: [{ key: "k", stringValue: "v" }],
      chunkingConfig: { whiteSpaceConfig: { maxTokensPerChunk: 200 } },
    });
    expect(parseImportFile({ file_name: "https://host/v1beta/files/abc" })).toEqual({
      fileName: "files/abc",
    });
    expect(() => parseFileSearchStoreCreate({ colour: "red" })).toThrow(/colour/);
    expect(() => parseImportFile({})).toThrow();
    expect(() => parseStoreUploadStart({ displayName: "x".repeat(513) })).toThrow(/512/);
  });

  it("reads force as a boolean", () => {
    expect(readForce(new URL("http://h/x?force=true"))).toBe(true);
    expect(readForce(new URL("http://h/x?force=False"))).toBe(false);
    expect(readForce(new URL("http://h/x"))).toBe(false);
    expect(() => readForce(new URL("http://h/x?force=yes"))).toThrow(/force/);
  });
});
