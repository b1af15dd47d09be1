import { describe, expect, it } from "vitest";
import { bodyOfOutcome } from "./body-reader-client";
import { readBodyText } from "./body-readers";
import { bodyReaderValue, longestString } from "@/lib/testing/body-reader-replies";
import { inlineDataBytes } from "@/lib/engine/base64-in-slices";
import type { GenerateContentRequest } from "@/lib/gemini/types";
import { decodeText } from "@/lib/runtime/encoded-text";
import { heldText, piecedText } from "@/lib/runtime/pieced-text";
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
    const reply = bodyReaderValue(text);
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

  it("come back as their code units in shared memory, never as a string in the message", async () => {
    const prompt = `${"Tell me about the harbour. ".repeat(LONG_STRING_CHARACTERS / 27 + 1)}`;
    const wide = `${"港の話をしてください。".repeat(LONG_STRING_CHARACTERS / 11 + 1)}\ud800`;
    const text = JSON.stringify({
      contents: [{ parts: [{ text: prompt }] }],
      systemInstruction: { parts: [{ text: wide }] },
    });
    const reply = bodyReaderValue(text);
    // What the request's thread receives holds no long string: one would be made there in one go.
    const received = structuredClone(reply);
    expect(longestString(received)).toBeLessThan(1_000);
    for (const entry of received.long ?? [])
      expect("encoded" in entry && entry.encoded.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);

    const read = (await bodyOfOutcome(received)) as GenerateContentRequest;
    const part = read.contents[0]!.parts[0]!;
    // Held as it came until something reads it; then it reads as sent.
    expect(heldText(part, "text")).toMatchObject({ encoding: "latin1" });
    expect(heldText(read.systemInstruction!.parts[0]!, "text")).toMatchObject({
      encoding: "utf16le",
    });
    expect(read).toStrictEqual(readBodyText(text, "generateContent"));
    expect(read.systemInstruction!.parts[0]!.text).toBe(JSON.parse(`"${wide}"`));
  });

  it("leave short strings, numbers and structure as they are", () => {
    const long = "y".repeat(LONG_STRING_CHARACTERS);
    const value = { a: ["x", 1, { b: long }, long], c: null };
    const setAside = setAsideLongStrings(value);
    expect(value).toEqual({ a: ["x", 1, { b: "" }, ""], c: null });
    putBackLongStrings(value, setAside);
    expect(value).toEqual({ a: ["x", 1, { b: long }, long], c: null });
    expect(JSON.stringify(value)).toBe(JSON.stringify({ a: ["x", 1, { b: long }, long], c: null }));
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
    const reply = bodyReaderValue(text);
    const entries = Object.fromEntries(
      (reply.long ?? []).map((entry) => [entry.path.join("."), entry]),
    );
    const inline = entries["contents.0.parts.1.inlineData.data"]!;
    expect("bytes" in inline && Buffer.from(inline.bytes).equals(document)).toBe(true);
    const lettersEntry = entries["contents.0.parts.0.text"]!;
    expect("encoded" in lettersEntry && decodeText(lettersEntry.encoded)).toBe(letters);
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

  it("keep inline data whose base64 is not exactly its bytes' as its text", async () => {
    // Line breaks inside: it decodes, but would not read back as sent.
    const data = `${"QUJD".repeat(LONG_STRING_CHARACTERS / 8)}\n${"QUJD".repeat(LONG_STRING_CHARACTERS / 8)}`;
    const value = { parts: [{ inlineData: { mimeType: "image/png", data } }] };
    const setAside = setAsideLongStrings(value);
    expect(setAside.map((entry) => entry.path)).toEqual([["parts", 0, "inlineData", "data"]]);
    const entry = setAside[0]!;
    expect("encoded" in entry && decodeText(entry.encoded)).toBe(data);
    putBackLongStrings(value, setAside);
    expect(value.parts[0]!.inlineData.data).toBe(data);
    // Its bytes are its text decoded, as for inline data sent as a string.
    expect(await inlineDataBytes(value.parts[0]!.inlineData)).toEqual(Buffer.from(data, "base64"));
  });
});
