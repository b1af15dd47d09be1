// The engine's thought signatures carry the thinking they stand for; anything else counts 0.
import { describe, expect, it } from "vitest";
import { makeThoughtSignature, thoughtSignatureTokens } from "./thought-signature";

describe("thought signatures", () => {
  it("give back the thinking they were made for, and differ each time", () => {
    const first = makeThoughtSignature(87);
    const second = makeThoughtSignature(87);
    expect(first).not.toBe(second);
    expect(thoughtSignatureTokens(first)).toBe(87);
    expect(thoughtSignatureTokens(makeThoughtSignature(0))).toBe(0);
    expect(thoughtSignatureTokens(makeThoughtSignature(123_456))).toBe(123_456);
  });

  it("count nothing for a signature the engine did not make, or one changed on the way", () => {
    expect(thoughtSignatureTokens("Eu4CCusCAQw51sdIpiRhG5x8vTdQvYSZXbDLRGC/fP1b1VA=")).toBe(0);
    expect(thoughtSignatureTokens("")).toBe(0);
    expect(thoughtSignatureTokens("not base64 at all!")).toBe(0);
    const signature = makeThoughtSignature(40);
    const bytes = Buffer.from(signature, "base64");
    bytes[5] = bytes[5]! ^ 0x01;
    expect(thoughtSignatureTokens(bytes.toString("base64"))).toBe(0);
  });
});
