import { describe, expect, it } from "vitest";
import { operationName } from "./operation-names";

describe("operationName", () => {
  it("names operations as the recorded exchanges do", () => {
    const cases: Array<[string, string, string]> = [
      ["GET", "models", "models.list"],
      ["GET", "models/gemini-2.5-flash", "models.get"],
      ["POST", "models/gemini-2.5-flash:generateContent", "generateContent"],
      ["POST", "models/gemini-2.5-flash:streamGenerateContent", "streamGenerateContent"],
      ["POST", "models/gemini-2.5-flash:countTokens", "countTokens"],
      ["POST", "models/text-embedding-004:embedContent", "embedContent"],
      ["POST", "cachedContents", "cachedContents.create"],
      ["GET", "cachedContents", "cachedContents.list"],
      ["GET", "cachedContents/abc", "cachedContents.get"],
      ["PATCH", "cachedContents/abc", "cachedContents.patch"],
      ["DELETE", "cachedContents/abc", "cachedContents.delete"],
      ["GET", "files/abc:download", "files.download"],
      ["POST", "batches/abc:cancel", "batches.cancel"],
      ["GET", "fileSearchStores/s1/documents", "fileSearchStores.documents.list"],
      ["GET", "fileSearchStores/s1/documents/d1", "fileSearchStores.documents.get"],
      ["GET", "fileSearchStores/s1/upload/operations/o1", "fileSearchStores.operations.get"],
      ["POST", "fileSearchStores/s1:importFile", "fileSearchStores.importFile"],
      ["POST", "interactions", "interactions.create"],
      ["POST", "interactions/abc/cancel", "interactions.cancel"],
      ["POST", "openai/chat/completions", "openai.chat.completions"],
      ["POST", "openai/embeddings", "openai.embeddings"],
      ["GET", "openai/models", "openai.models.list"],
      ["GET", "openai/models/gemini-2.5-flash", "openai.models.get"],
    ];
    for (const [method, rest, name] of cases) expect(operationName(method, rest), rest).toBe(name);
  });

  it("names uploads by their command", () => {
    expect(operationName("POST", "files", { upload: true })).toBe("files.upload.start");
    expect(operationName("PUT", "files", { upload: true, uploadCommand: true })).toBe(
      "files.upload.chunk",
    );
  });
});
