import { describe, expect, it } from "vitest";
import { classifyText } from "@/lib/engine/safety";
import { SUPPORTED_HARM_CATEGORIES } from "@/lib/gemini/types";
import { corpusDocuments } from "./index";

describe("the shipped corpus", () => {
  const documents = corpusDocuments();

  it("holds answer and thought documents of a reasonable size", () => {
    const answers = documents.filter((document) => document.kind === "answer");
    const thoughts = documents.filter((document) => document.kind === "thought");
    expect(answers.length).toBeGreaterThan(100);
    expect(thoughts.length).toBeGreaterThanOrEqual(10);
    const bytes = documents.reduce((sum, document) => sum + Buffer.byteLength(document.text), 0);
    expect(bytes).toBeGreaterThan(40_000);
    expect(bytes).toBeLessThan(400_000);
    for (const document of documents) expect(document.text.length).toBeGreaterThan(40);
  });

  it("never triggers the safety classifier on its own", () => {
    for (const document of documents) {
      const levels = classifyText(document.text);
      for (const category of SUPPORTED_HARM_CATEGORIES)
        expect(levels[category], `${category}: ${document.text.slice(0, 60)}`).toBe(0);
    }
  });

  it("opens every thought with a bold title, as thought summaries do", () => {
    for (const document of documents.filter((item) => item.kind === "thought"))
      expect(document.text).toMatch(/^\*\*[^*]+\*\*\n\n/);
  });
});
