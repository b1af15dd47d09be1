import { describe, expect, it } from "vitest";
import { ResourceNames, scanBodySteps } from "./resource-names";
import { runSteps } from "./steps";

function anywhere(text: string): string[] {
  const names = new ResourceNames();
  names.addAnywhere(text);
  return names.list().map((item) => `${item.kind} ${item.name}`);
}

describe("resource names in a string", () => {
  it("finds every kind, in any spelling a reader resolves", () => {
    expect(anywhere("files/abc")).toEqual(["file files/abc"]);
    expect(anywhere("https://generativelanguage.googleapis.com/v1beta/files/abc")).toEqual([
      "file files/abc",
    ]);
    expect(anywhere("http://studio:3000/download/v1beta/files/abc:download?alt=media")).toEqual([
      "file files/abc",
    ]);
    expect(anywhere("FILES/abc")).toEqual(["file files/abc"]);
    expect(anywhere("x/files%2Fabc")).toEqual(["file files/abc"]);
    expect(anywhere("x/files%252Fabc")).toEqual(["file files/abc"]);
    expect(anywhere("%66iles/abc")).toEqual(["file files/abc"]);
    expect(anywhere("files\\abc")).toEqual(["file files/abc"]);
    expect(anywhere("files//abc")).toEqual(["file files/abc"]);
    expect(anywhere("https://x/v1beta/a/../files/./abc")).toEqual(["file files/abc"]);
    expect(anywhere("https://x/files/mine/../theirs")).toEqual([
      "file files/mine",
      "file files/theirs",
    ]);
    expect(anywhere("https://x/fi\tles/abc")).toEqual(["file files/abc"]);
    expect(anywhere("https://x/files/mine/a b/../../theirs")).toEqual([
      "file files/mine",
      "file files/theirs",
    ]);
    expect(anywhere("see cachedContents/c1 and batches/b-1 please")).toEqual([
      "cachedContent cachedContents/c1",
      "batch batches/b-1",
    ]);
    expect(anywhere("interactions/v1_abc operations/op1 tunedModels/t1")).toEqual([
      "interaction interactions/v1_abc",
      "operation operations/op1",
      "tunedModel tunedModels/t1",
    ]);
  });

  it("takes a store's documents and operations, and a tuned model's operations, as the parent's", () => {
    expect(anywhere("fileSearchStores/s1/upload/operations/o1")).toEqual([
      "fileSearchStore fileSearchStores/s1",
    ]);
    expect(anywhere("fileSearchStores/s1/documents/d1")).toEqual([
      "fileSearchStore fileSearchStores/s1",
    ]);
    expect(anywhere("tunedModels/t1/operations/o1")).toEqual(["tunedModel tunedModels/t1"]);
    expect(anywhere("fileSearchStores/s1/x/operations/o1")).toEqual([
      "fileSearchStore fileSearchStores/s1",
      "operation operations/o1",
    ]);
  });

  it("leaves paths that name no resource alone", () => {
    for (const text of [
      "models/gemini-2.5-flash",
      "myfiles/abc",
      "https://example.com/files/report.pdf",
      "text/plain",
      "files/",
      "the files are here",
    ])
      expect(anywhere(text), text).toEqual([]);
  });

  it("takes a known field's value only when it is itself a name", () => {
    const names = new ResourceNames();
    names.addWhole(" tunedModels/t1 ");
    names.addWhole("a display name about files/abc");
    expect(names.list()).toEqual([{ kind: "tunedModel", name: "tunedModels/t1" }]);
  });

  it("is linear: a string of megabytes of near-names is read at once", () => {
    const text = "files/".repeat(300_000) + "%2F".repeat(300_000);
    const started = performance.now();
    anywhere(text);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("a body's resource names outside its known fields", () => {
  const scan = (body: unknown, unknown: unknown[] = []) => {
    const names = new ResourceNames();
    runSteps(scanBodySteps({ body, unknown }, names));
    return names.list().map((item) => item.name);
  };
  const text = { contents: [{ parts: [{ text: "read https://s/v1beta/files/abc now" }] }] };

  it("counts the URLs of text only when a tool that fetches may be on", () => {
    expect(scan(text)).toEqual([]);
    expect(scan({ ...text, tools: [{ url_context: {} }] })).toEqual(["files/abc"]);
    expect(scan({ ...text, tools: [{ urlContext: {} }] })).toEqual(["files/abc"]);
    expect(scan({ ...text, tools: [{ computer_use: {} }] })).toEqual(["files/abc"]);
    expect(scan({ ...text, cachedContent: "cachedContents/c" })).toEqual(["files/abc"]);
    expect(scan({ input: text, tools: [{ type: "url_context" }] })).toEqual(["files/abc"]);
  });

  it("counts every name in unknown values, keys included, with or without a tool", () => {
    expect(scan(text, ["futureField", { "files/k": ["x", { deep: "batches/b" }] }])).toEqual([
      "files/k",
      "batches/b",
    ]);
  });
});
