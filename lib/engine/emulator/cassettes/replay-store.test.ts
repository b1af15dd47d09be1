import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import { ownerFolder, readCassette } from "./cassette-format";
import { ReplayStore, type ReplayOptions } from "./replay-store";

const NORMALISED: ReplayOptions = { match: "normalised", pace: "full", onMiss: "engine" };
const EXACT: ReplayOptions = { ...NORMALISED, match: "exact" };

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({
    method: "POST",
    path: "/v1beta/models/gemini-2.5-flash:generateContent",
    query: {},
    requestBodyEncoding: "json",
    requestBody: {
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      generationConfig: { maxOutputTokens: 5 },
    },
    status: 200,
    responseHeaders: { "content-type": "application/json; charset=UTF-8" },
    responseBody: "{}",
    ...fields,
  });

function problem(text: string): string {
  try {
    readCassette(text, "c.jsonl");
  } catch (error) {
    return (error as ApiError).message;
  }
  return "";
}

describe("cassettes", () => {
  it("reads every shared recording", () => {
    const text = readFileSync("e2e/fixtures/recorded-exchanges/exchanges.jsonl", "utf8");
    expect(readCassette(text, "shared").length).toBe(text.split("\n").filter(Boolean).length);
  });

  it("names the line and field of what it cannot read", () => {
    expect(problem(`${line({})}\n{`)).toMatch(/c\.jsonl, line 2: \(line\): is not JSON/);
    expect(problem(line({ cassetteVersion: 2 }))).toMatch(
      /line 1: cassetteVersion: 2 is not a version/,
    );
    expect(problem(line({ method: "TRACE" }))).toMatch(/line 1: method/);
    expect(problem(line({ responseTiming: { headersMs: 1, chunks: [[1, 99]] } }))).toMatch(
      /responseTiming: counts other bytes/,
    );
    expect(problem("\n\n")).toMatch(/holds no exchange/);
  });

  it("gives each owner a folder of its own", () => {
    expect(ownerFolder("key:alice")).toMatch(/^key-alice-[0-9a-f]{8}$/);
    expect(ownerFolder("key:alice")).not.toBe(ownerFolder("key/alice"));
  });
});

describe("replay matching", () => {
  const request = (body: unknown, path = "/v1beta/models/gemini-2.5-flash:generateContent") => ({
    method: "POST",
    path,
    query: new URLSearchParams(),
    body,
  });

  it("matches a request however spelt when normalised, only the same JSON when exact", () => {
    const store = new ReplayStore();
    const exchanges = readCassette(line({ responseBody: '{"n":1}' }), "c");
    store.add("key:alice", "normalised", exchanges, NORMALISED);
    const snake = {
      generation_config: { max_output_tokens: 5 },
      contents: [{ parts: [{ text: "hi" }], role: "user" }],
    };
    expect(
      store.find("key:alice", request(snake, "/v1/models/gemini-2.5-flash:generateContent")),
    ).toHaveProperty("exchange");
    const exact = new ReplayStore();
    exact.add("key:alice", "exact", exchanges, { ...EXACT, onMiss: "fail" });
    expect(exact.find("key:alice", request(snake))).toEqual({ miss: "fail" });
    expect(
      exact.find("key:alice", request(JSON.parse(JSON.stringify(exchanges[0]!.requestBody)))),
    ).toHaveProperty("exchange");
  });

  it("answers repeated requests in recorded order, then repeats the last; per caller", () => {
    const store = new ReplayStore();
    const text = [1, 2].map((n) => line({ responseBody: `{"n":${n}}`, group: "g" })).join("\n");
    store.addInstance("both", readCassette(text, "c"), NORMALISED);
    const body = {
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      generationConfig: { maxOutputTokens: 5 },
    };
    const answer = (owner: string) => {
      const found = store.find(owner, request(body));
      return "exchange" in found ? found.exchange.responseBody : null;
    };
    expect([answer("key:alice"), answer("key:alice"), answer("key:alice")]).toEqual([
      '{"n":1}',
      '{"n":2}',
      '{"n":2}',
    ]);
    expect(answer("key:bob")).toBe('{"n":1}');
  });

  it("keeps a caller's cassettes to that caller", () => {
    const store = new ReplayStore();
    store.add("key:alice", "mine", readCassette(line({}), "c"), NORMALISED);
    store.addForFolder(
      ownerFolder("key:carol"),
      "carol/rec.jsonl",
      readCassette(line({}), "c"),
      NORMALISED,
    );
    expect(store.isEmpty("key:bob")).toBe(true);
    expect(store.list("key:bob")).toEqual([]);
    expect(store.remove("key:bob", "mine")).toBe(false);
    expect(store.list("key:alice").map((item) => item.name)).toEqual(["mine"]);
    expect(store.list("key:carol").map((item) => item.name)).toEqual(["carol/rec.jsonl"]);
  });
});
