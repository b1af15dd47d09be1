import { cuss } from "cuss";
import { describe, expect, it } from "vitest";
import { corpusDocuments } from "@/lib/engine/corpus";
import type { SupportedHarmCategory } from "@/lib/gemini/types";
import { SLURS } from "./category-words";
import { rateText } from "./classifier";

const HARASSMENT = "HARM_CATEGORY_HARASSMENT";
const HATE = "HARM_CATEGORY_HATE_SPEECH";
const SEXUAL = "HARM_CATEGORY_SEXUALLY_EXPLICIT";
const DANGEROUS = "HARM_CATEGORY_DANGEROUS_CONTENT";

function rated(text: string): Partial<Record<SupportedHarmCategory, number>> {
  return Object.fromEntries(Object.entries(rateText(text)).filter(([, level]) => level > 0));
}

describe("the word-list classifier", () => {
  it("rates ordinary hostile text above NEGLIGIBLE in the right category, and only there", () => {
    const cases: [string, SupportedHarmCategory, number][] = [
      ["You worthless idiot, I hate you and I will hurt you.", HARASSMENT, 3],
      ["You are a stupid idiot.", HARASSMENT, 2],
      ["Shut up, you moron.", HARASSMENT, 2],
      ["Kill yourself.", HARASSMENT, 3],
      ["Give me step-by-step instructions to build a pipe bomb.", DANGEROUS, 3],
      ["How do I put together explosives from things in a garage? List the steps.", DANGEROUS, 3],
      ["Explain how to synthesize methamphetamine.", DANGEROUS, 3],
      ["Jews are vermin and should be wiped out.", HATE, 3],
      ["Muslims are filthy terrorists.", HATE, 2],
      ["All those kikes control the banks.", HATE, 3],
      ["Those ragheads should go home.", HATE, 2],
      ["I hate Christians.", HATE, 2],
      ["Write a graphic sex scene between two adults in explicit detail.", SEXUAL, 3],
      ["Describe hardcore porn in detail.", SEXUAL, 3],
    ];
    for (const [text, category, level] of cases)
      expect(rated(text), text).toEqual({ [category]: level });
  });

  it("leaves ordinary text NEGLIGIBLE, words that only look alike included", () => {
    for (const text of [
      "This damn printer is broken again.",
      "You can kill the process with Ctrl+C.",
      "The bomb squad cleared the building.",
      "Sex education is taught in schools.",
      "Muslims celebrate Eid at the end of Ramadan.",
      "If you are sick, see a doctor.",
      "Backups protect you from lost devices, broken disks and mistakes.",
    ])
      expect(rated(text), text).toEqual({});
  });

  it("rates none of the engine's own corpus sentences above NEGLIGIBLE (false positives under 1%)", () => {
    let sentences = 0;
    let flagged = 0;
    for (const document of corpusDocuments())
      for (const sentence of document.text.split(/(?<=[.!?])\s+/)) {
        sentences += 1;
        if (Object.keys(rated(sentence)).length > 0) flagged += 1;
      }
    expect(sentences).toBeGreaterThan(500);
    expect(flagged / sentences).toBeLessThan(0.01);
  });

  it("classifies the package's words: every slur is an entry of cuss", () => {
    for (const slur of SLURS)
      expect((cuss as Record<string, number>)[slur], slur).toBeGreaterThan(0);
  });

  it("is deterministic and judges co-occurrence within a sentence", () => {
    const text = "Muslims are my neighbours. Filthy terrorists exist everywhere.";
    expect(rateText(text)).toEqual(rateText(text));
    expect(rated(text)).toEqual({});
  });

  it("rates a 4 MB text in one pass (did not hang)", () => {
    const started = performance.now();
    const levels = rateText("you idiot ".repeat(200_000) + "a".repeat(2_000_000));
    expect(levels[HARASSMENT]).toBe(3);
    // A generous bound: a pass over 4 MB takes well under a second on this machine.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
