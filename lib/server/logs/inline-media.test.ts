import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMediaElider, mediaNote, withoutInlineMedia } from "./inline-media";

describe("inline media left out of logged JSON", () => {
  it("replaces data members and data URLs, keeps everything else", () => {
    const body = {
      contents: [
        {
          parts: [
            { text: "what is in this picture? data: none" },
            { inlineData: { mimeType: "image/png", data: "iVBORw0KGgoAAAANSUhEUg==" } },
            { image_url: { url: "data:image/png;base64,AAAA" } },
            { image_url: { url: "https://example.test/a.png" } },
            { fileData: { fileUri: "files/abc" } },
          ],
        },
      ],
      data: [{ embedding: [1, 2] }],
      short: "dat",
    };
    const out = JSON.parse(withoutInlineMedia(JSON.stringify(body))) as typeof body;
    const parts = out.contents[0]!.parts as unknown as Array<
      Record<string, Record<string, string>>
    >;
    expect(parts[0]).toEqual({ text: "what is in this picture? data: none" });
    expect(parts[1]!.inlineData).toEqual({ mimeType: "image/png", data: mediaNote(24) });
    expect(parts[2]!.image_url!.url).toBe(mediaNote(26));
    expect(parts[3]!.image_url!.url).toBe("https://example.test/a.png");
    expect(parts[4]).toEqual({ fileData: { fileUri: "files/abc" } });
    expect(out.data).toEqual([{ embedding: [1, 2] }]);
    expect(out.short).toBe("dat");
  });

  it("reads SSE events and escaped quotes", () => {
    const event = (data: string) =>
      `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ inlineData: { data }, text: 'say "hi"' }] } }] })}\r\n\r\n`;
    const text = event("QUJD") + event('x\\"y');
    const out = withoutInlineMedia(text);
    const events = out
      .split("\r\n\r\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line.slice(6)));
    expect(events[0].candidates[0].content.parts[0]).toEqual({
      inlineData: { data: mediaNote(4) },
      text: 'say "hi"',
    });
    expect(events[1].candidates[0].content.parts[0].inlineData.data).toBe(mediaNote(6));
  });

  it("gives the same text however the input is cut into pieces", () => {
    const sample = JSON.stringify({
      a: "data:image/png;base64,QUJD",
      data: "QUJDREVG",
      b: "dat",
      c: ["data", "x"],
      nested: { data: "", url: "data:" },
    });
    const whole = withoutInlineMedia(sample);
    fc.assert(
      fc.property(fc.array(fc.nat(sample.length), { maxLength: 8 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const elider = createMediaElider();
        let out = "";
        let from = 0;
        for (const point of points) {
          out += elider.push(sample.slice(from, point));
          from = point;
        }
        out += elider.push(sample.slice(from)) + elider.end();
        expect(out).toBe(whole);
      }),
    );
    expect(JSON.parse(whole)).toEqual({
      a: mediaNote(26),
      data: mediaNote(8),
      b: "dat",
      c: ["data", "x"],
      nested: { data: mediaNote(0), url: mediaNote(5) },
    });
  });
});
