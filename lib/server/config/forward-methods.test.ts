import { describe, expect, it } from "vitest";
import { forwardRuleFor, parseForwardRules } from "./forward-methods";

describe("GATEWAY_FORWARD_METHODS", () => {
  const rules = parseForwardRules(
    "POST models/*:embedContent, get tunedModels/**\n  DELETE operations/*",
  );

  it("matches a method and a path after the version segment, * within a segment, ** across", () => {
    expect(forwardRuleFor(rules, "POST", "models/gemini-embedding-001:embedContent")?.text).toBe(
      "models/*:embedContent",
    );
    expect(forwardRuleFor(rules, "GET", "tunedModels/a/operations/b")?.method).toBe("GET");
    expect(forwardRuleFor(rules, "DELETE", "operations/x")).not.toBeNull();
    for (const [method, path] of [
      ["GET", "models/x:embedContent"],
      ["POST", "models/a/b:embedContent"],
      ["POST", "models/:embedContent"],
      ["DELETE", "operations/x/y"],
      ["GET", "tunedModels/../files/x"],
      ["POST", "xmodels/a:embedContent"],
    ])
      expect(forwardRuleFor(rules, method!, path!), `${method} ${path}`).toBeNull();
  });

  it("is empty unless set, and refuses an entry it cannot read, naming it", () => {
    expect(parseForwardRules(undefined)).toEqual([]);
    expect(parseForwardRules(" , ")).toEqual([]);
    for (const entry of [
      "FETCH models/*",
      "POST",
      "POST /v1beta/models/*",
      "POST a b",
      "GET x/../y",
      "POST models/(x)",
    ])
      expect(() => parseForwardRules(entry), entry).toThrow(entry.trim().split(",")[0]!);
  });
});
