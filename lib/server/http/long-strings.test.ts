import { describe, expect, it } from "vitest";
import { bodyOfOutcome } from "./body-reader-client";
import { answerBodyReaderRequest, readBodyText } from "./body-readers";
import { inlineDataBytes } from "@/lib/engine/base64-in-slices";
import type { GenerateContentRequest } from "@/lib/gemini/types";
import { piecedText } from "@/lib/runtime/pieced-text";
import {
  LONG_STRING_CHARACTERS,
  putBackLongStrings,
  setAsideBuffers,
  setAsideLongStrings,
} from "./long-strings";

describe("long strings of a body read in the worker", () => {
  it("come back beside the JSON pieces, not in them, and are put back where they were", async () => {
    const long = (letter: string) => letter.repeat(LONG_STRING_CHARACTERS);
    const body = {
      contents: [
        { parts: [{ text: "short" }, { text: long("a") }] },
        {
          role: "user",
          parts: [{ inlineData: { mimeType: "application/pdf", data: long("Q") } }],
        },
      ],
      systemInstruction: { parts: [{ text: `${long("b")}\u{1F600}"quoted"` }] },
    };
    const text = JSON.stringify(body);
    const bytes = new TextEncoder().encode(text);
    const reply = answerBodyReaderRequest({
      id: 1,
      reader: "generateContent",
      bytes: [bytes],
      size: bytes.length,
    });
    expect(reply.kind).toBe("value");
    if (reply.kind !== "value") return;
    expect(reply.pieces.bytes.length).toBeLessThan(1_000);
    expect(reply.long?.map((entry) => entry.path.join("."))).toEqual(
      expect.arrayContaining([
        "contents.0.parts.1.text",
        "contents.1.parts.0.inlineData.data",
        "systemInstruction.parts.0.text",
      ]),
    );
    expect(await bodyOfOutcome(reply)).toStrictEqual(readBodyText(text, "generateContent"));
  });

  it("leave short strings, numbers and structure as they are", () => {
    const value = { a: ["x", 1, { b: "y".repeat(LONG_STRING_CHARACTERS) }], c: null };
    const setAside = setAsideLongStrings(value);
    expect(value).toEqual({ a: ["x", 1, { b: "" }], c: null });
    putBackLongStrings(value, setAside);
    expect(value.a[2]).toEqual({ b: "y".repeat(LONG_STRING_CHARACTERS) });
  });

  it("send inline data back as its bytes, which the request's thread takes without decoding", async () => {
    const document = Buffer.alloc(1_000_000, "1 0 obj << /Type /Page >> endobj ");
    const data = document.toString("base64");
    // Base64 letters in a prompt are text, not data: they stay a string.
    const letters = "QUJD".repeat(LONG_STRING_CHARACTERS / 4);
    const text = JSON.stringify({
      contents: [
        { parts: [{ text: letters }, { inlineData: { mimeType: "application/pdf", data } }] },
      ],
    });
    const bytes = new TextEncoder().encode(text);
    const reply = answerBodyReaderRequest({
      id: 1,
      reader: "generateContent",
      bytes: [bytes],
      size: bytes.length,
    });
    if (reply.kind !== "value") throw new Error(`not read: ${reply.kind}`);
    const entries = Object.fromEntries(
      (reply.long ?? []).map((entry) => [entry.path.join("."), entry]),
    );
    const inline = entries["contents.0.parts.1.inlineData.data"]!;
    expect("bytes" in inline && Buffer.from(inline.bytes).equals(document)).toBe(true);
    expect(entries["contents.0.parts.0.text"]).toHaveProperty("text", letters);
    // The bytes' memory is handed to the other thread, not copied into the message.
    expect(setAsideBuffers(reply.long ?? [])).toEqual(["bytes" in inline && inline.bytes.buffer]);

    const read = (await bodyOfOutcome(reply)) as GenerateContentRequest;
    const part = read.contents[0]!.parts[1]!;
    expect(part.inlineData!.data).toBe(data);
    expect(read.contents[0]!.parts[0]!.text).toBe(letters);
    const held = piecedText(part.inlineData!, "data")![0] as Uint8Array;
    const taken = await inlineDataBytes(part.inlineData!);
    expect(taken.equals(document)).toBe(true);
    expect(taken.buffer).toBe(held.buffer);
  });

  it("keep inline data whose base64 is not exactly its bytes' as its text", () => {
    // Line breaks inside: it decodes, but would not read back as sent.
    const data = `${"QUJD".repeat(LONG_STRING_CHARACTERS / 8)}\n${"QUJD".repeat(LONG_STRING_CHARACTERS / 8)}`;
    const value = { parts: [{ inlineData: { mimeType: "image/png", data } }] };
    expect(setAsideLongStrings(value)).toEqual([
      { path: ["parts", 0, "inlineData", "data"], text: data },
    ]);
  });
});
