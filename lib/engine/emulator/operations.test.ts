import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OPERATIONS, isOperationName, operationMatches, operationOf } from "./operations";

/** This repository's extract spells a store upload `fileSearchStores.upload.*`; the shared format's longer name is ours. */
const UPLOAD_TO_STORE = "fileSearchStores.uploadToFileSearchStore.";

describe("operationOf", () => {
  it("names each operation as the recorded-exchanges format does", () => {
    expect(operationOf("POST", "models/gemini-2.5-flash:generateContent")).toBe("generateContent");
    expect(operationOf("POST", "models/x:streamGenerateContent")).toBe("streamGenerateContent");
    expect(operationOf("GET", "models")).toBe("models.list");
    expect(operationOf("GET", "models/gemini-2.5-flash")).toBe("models.get");
    expect(operationOf("POST", "cachedContents")).toBe("cachedContents.create");
    expect(operationOf("PATCH", "cachedContents/abc")).toBe("cachedContents.patch");
    expect(operationOf("GET", "files/abc:download")).toBe("files.download");
    expect(operationOf("POST", "batches/b1:cancel")).toBe("batches.cancel");
    expect(operationOf("GET", "fileSearchStores/s/documents")).toBe(
      "fileSearchStores.documents.list",
    );
    expect(operationOf("GET", "fileSearchStores/s/upload/operations/o")).toBe(
      "fileSearchStores.operations.get",
    );
    expect(operationOf("POST", "files", { upload: true })).toBe("files.upload.start");
    expect(operationOf("POST", "files", { upload: true, sessionCommand: true })).toBe(
      "files.upload.chunk",
    );
    expect(operationOf("POST", "interactions")).toBe("interactions.create");
    expect(operationOf("GET", "interactions/v1_abc")).toBe("interactions.get");
    expect(operationOf("POST", "interactions/v1_abc/cancel")).toBe("interactions.cancel");
    expect(operationOf("DELETE", "interactions/v1_abc")).toBe("interactions.delete");
    expect(operationOf("POST", "models/gemini-embedding-001:batchEmbedContents")).toBe(
      "batchEmbedContents",
    );
    expect(operationOf("POST", "openai/chat/completions")).toBe("openai.chat.completions");
  });

  it("gives every recorded exchange's path the operation it was recorded under", () => {
    for (const file of [
      "/work/shared/conformance/recorded-exchanges/exchanges.jsonl",
      "e2e/fixtures/recorded-exchanges/exchanges.jsonl",
    ]) {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        continue;
      }
      for (const line of text.split("\n").filter(Boolean)) {
        const exchange = JSON.parse(line) as {
          method: string;
          path: string;
          operation: string;
          query: Record<string, string>;
        };
        const upload = exchange.path.startsWith("/upload/");
        const rest = exchange.path.replace(/^\/(?:upload\/)?v1[a-z0-9]*\//, "");
        expect(
          operationOf(exchange.method, decodeURIComponent(rest), {
            upload,
            sessionCommand: "upload_id" in exchange.query,
          }),
        ).toBe(exchange.operation.replace("fileSearchStores.upload.", UPLOAD_TO_STORE));
        expect(OPERATIONS as readonly string[]).toContain(
          exchange.operation.replace("fileSearchStores.upload.", UPLOAD_TO_STORE),
        );
      }
    }
  });
});

describe("operation names and groups", () => {
  it("knows names and groups, and matches a group's members", () => {
    expect(isOperationName("files")).toBe(true);
    expect(isOperationName("stream")).toBe(true);
    expect(isOperationName("files.get")).toBe(true);
    expect(isOperationName("fles")).toBe(false);
    expect(operationMatches("files", "files.upload.start")).toBe(true);
    expect(operationMatches("caches", "cachedContents.get")).toBe(true);
    expect(operationMatches("stream", "generateContent")).toBe(false);
    expect(operationMatches("embeddings", "batchEmbedContents")).toBe(true);
    expect(operationMatches("toString", "generateContent")).toBe(false);
  });
});
