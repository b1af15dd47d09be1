import { describe, expect, it } from "vitest";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import {
  findCitations,
  gatherCitableSources,
  indexCitableSources,
  MIN_CITED_WORDS,
  type CitableSource,
} from "./citations";
import { answerText, collect, generateContent, plain } from "@/lib/testing/generation";

const FILE_URI = "https://generativelanguage.googleapis.com/v1beta/files/notes-1";
const FILE_TEXT =
  "Field notes. The lighthouse keeper climbs ninety steps every evening at dusk. Nothing else happened.";

function bytesOf(text: string, start: number, end: number): string {
  return Buffer.from(text, "utf8").subarray(start, end).toString("utf8");
}

const withFile = (prompt: string) =>
  plain(
    prompt,
    { temperature: 0 },
    {
      contents: [
        {
          role: "user",
          parts: [{ fileData: { fileUri: FILE_URI, mimeType: "text/plain" } }, { text: prompt }],
        },
      ],
    },
  );

function resolvingFile(
  input: ReturnType<typeof plain>,
  text = FILE_TEXT,
): ReturnType<typeof plain> {
  return {
    ...input,
    resolveFile: async (uri) =>
      uri === FILE_URI
        ? {
            mimeType: "text/plain",
            displayName: "notes.txt",
            probed: {
              kind: "text",
              mimeType: "text/plain",
              sizeBytes: Buffer.byteLength(text),
              text,
            },
          }
        : Promise.reject(new Error(uri)),
  };
}

async function cite(answer: string, sources: CitableSource[]) {
  return findCitations(answer, await indexCitableSources(sources));
}

describe("findCitations", () => {
  it("gives exact byte offsets of a copied run on ASCII text", async () => {
    const answer = "As noted, the lighthouse keeper climbs ninety steps every evening, they say.";
    const [citation, ...rest] = await cite(answer, [{ text: FILE_TEXT, uri: FILE_URI }]);
    expect(rest).toEqual([]);
    expect(citation!.uri).toBe(FILE_URI);
    expect(bytesOf(answer, citation!.startIndex!, citation!.endIndex!)).toBe(
      "lighthouse keeper climbs ninety steps every",
    );
    // Verbatim is case-sensitive: "the" is not "The".
    expect(citation!.startIndex).toBe(answer.indexOf("lighthouse"));
  });

  it("counts UTF-8 bytes, not UTF-16 units, before and inside the span", async () => {
    const source = "Él dijo: «café con leche, señor, y un cruasán» — y se fue.";
    const answer = "Résumé 😀 → «café con leche, señor, y un cruasán» fin";
    const [citation] = await cite(answer, [{ text: source, uri: "cachedContents/abc" }]);
    const expected = "«café con leche, señor, y un cruasán»";
    const start = Buffer.byteLength(answer.slice(0, answer.indexOf(expected)));
    expect(start).not.toBe(answer.indexOf(expected));
    expect(citation).toEqual({
      startIndex: start,
      endIndex: start + Buffer.byteLength(expected),
      uri: "cachedContents/abc",
    });
    expect(bytesOf(answer, citation!.startIndex!, citation!.endIndex!)).toBe(expected);
  });

  it("cites nothing below the minimum run, nor words that only match inside other words", async () => {
    const source = "one two three four five six";
    expect(
      await cite("one two three four and more", [{ text: source, uri: "files/numbers" }]),
    ).toEqual([]);
    expect(
      await cite("xone two three four five", [{ text: source, uri: "files/numbers" }]),
    ).toEqual([]);
    expect(MIN_CITED_WORDS).toBe(5);
  });

  it("points each run at the source it came from, and prefers the longer copy", async () => {
    const first = { text: "alpha beta gamma delta epsilon zeta", uri: "files/a" };
    const second = { text: "red orange yellow green blue indigo violet", uri: "files/b" };
    const shorter = { text: "so orange yellow green blue indigo", uri: "files/shorter" };
    const answer =
      "alpha beta gamma delta epsilon zeta, then red orange yellow green blue indigo. And orange yellow green blue indigo violet";
    const cited = (await cite(answer, [first, shorter, second])).map((citation) => [
      bytesOf(answer, citation.startIndex!, citation.endIndex!),
      citation.uri,
    ]);
    expect(cited).toEqual([
      ["alpha beta gamma delta epsilon", "files/a"],
      // "indigo." with its full stop is not the source's "indigo".
      ["red orange yellow green blue", "files/b"],
      ["orange yellow green blue indigo violet", "files/b"],
    ]);
  });

  // How fast this is belongs in a bench, not in an assertion (about 0.9 s here); the 30 s limit
  // only catches a search gone badly wrong.
  it("finds a copy deep inside a large file from a long answer", async () => {
    const vocabulary = [
      "river",
      "stone",
      "lantern",
      "copper",
      "meadow",
      "harbour",
      "candle",
      "orchard",
      "falcon",
      "silver",
      "window",
      "ember",
    ];
    let state = 7;
    const word = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return vocabulary[state % vocabulary.length]!;
    };
    const source = Array.from({ length: 250_000 }, word).join(" ");
    const copied = source.split(" ").slice(120_000, 120_040).join(" ");
    const answer = `${Array.from({ length: 3000 }, () => "zebra").join(" ")} ${copied} ${Array.from({ length: 3000 }, () => "quartz").join(" ")}`;
    const citations = await cite(answer, [{ text: source, uri: "files/big" }]);
    expect(
      citations.some((citation) =>
        bytesOf(answer, citation.startIndex!, citation.endIndex!).includes(copied),
      ),
    ).toBe(true);
  }, 30_000);
});

function citationsOf(chunks: GenerateContentResponse[]) {
  return chunks.flatMap((chunk, position) =>
    (chunk.candidates ?? [])
      .filter((candidate) => candidate.citationMetadata)
      .map((candidate) => ({ position, candidate })),
  );
}

describe("citations from the local engine", () => {
  it("cites an uploaded text file the answer copies, on the last chunk of the stream", async () => {
    const copied = "The lighthouse keeper climbs ninety steps every evening at dusk.";
    const input = resolvingFile(withFile(`Repeat after me: ${copied}`));
    const chunks = await collect(input);
    const text = chunks.map((chunk) => answerText(chunk)).join("");
    expect(text).toBe(copied);
    const cited = citationsOf(chunks);
    expect(cited).toHaveLength(1);
    expect(cited[0]!.position).toBe(chunks.length - 1);
    expect(cited[0]!.candidate.finishReason).toBe("STOP");
    expect(cited[0]!.candidate.citationMetadata!.citationSources).toEqual([
      { startIndex: 0, endIndex: Buffer.byteLength(copied), uri: FILE_URI },
    ]);
    const merged = await generateContent(resolvingFile(withFile(`Repeat after me: ${copied}`)));
    expect(merged.candidates![0]!.citationMetadata!.citationSources).toEqual([
      { startIndex: 0, endIndex: Buffer.byteLength(copied), uri: FILE_URI },
    ]);
  });

  it("cites non-ASCII copies with byte offsets", async () => {
    const fileText = "Notizen: Die Brücke über den Fluß wurde 1890 gebaut und steht noch.";
    const answerWanted = "Ja — die Brücke über den Fluß wurde 1890 gebaut";
    const response = await generateContent(
      resolvingFile(withFile(`Repeat after me: ${answerWanted}`), fileText),
    );
    expect(answerText(response)).toBe(answerWanted);
    const [citation] = response.candidates![0]!.citationMetadata!.citationSources!;
    expect(bytesOf(answerWanted, citation!.startIndex!, citation!.endIndex!)).toBe(
      "Brücke über den Fluß wurde 1890 gebaut",
    );
    expect(citation!.startIndex).toBe(Buffer.byteLength("Ja — die "));
    expect(citation!.uri).toBe(FILE_URI);
  });

  it("never cites the prompt: the history, the system instruction, inline text, the question", async () => {
    const said = "my grandmother planted seven apple trees behind the old mill";
    const inline = {
      mimeType: "text/plain",
      data: Buffer.from(`Notes: ${said}.`).toString("base64"),
    };
    const prompt = plain(
      "",
      { temperature: 0 },
      {
        systemInstruction: { parts: [{ text: `Know this: ${said}.` }] },
        contents: [
          { role: "user", parts: [{ text: `Remember this: ${said} and nothing else.` }] },
          { role: "model", parts: [{ text: "I will remember it." }] },
          { role: "user", parts: [{ inlineData: inline }, { text: `Repeat after me: ${said}` }] },
        ],
      },
    );
    const response = await generateContent(prompt);
    expect(answerText(response)).toBe(said);
    expect(response.candidates![0]!.citationMetadata).toBeUndefined();
    // The same words in a stored file the request uses are cited, by the file's uri.
    const filed = await generateContent(
      resolvingFile(withFile(`Repeat after me: ${said}`), `Field notes: ${said} and more.`),
    );
    expect(filed.candidates![0]!.citationMetadata!.citationSources).toEqual([
      { startIndex: 0, endIndex: Buffer.byteLength(said), uri: FILE_URI },
    ]);
  });

  it("has no citation when nothing was copied", async () => {
    const response = await generateContent(
      resolvingFile(
        withFile("Repeat after me: Completely different words appear in this reply today"),
      ),
    );
    expect(response.candidates![0]!.citationMetadata).toBeUndefined();
  });

  it("names the cache for cached contents", async () => {
    const sources = await gatherCitableSources(
      {
        contents: [
          { role: "user", parts: [{ text: "cached words" }] },
          { role: "user", parts: [{ text: "question" }] },
        ],
      },
      async () => Promise.reject(new Error("no files")),
      { cachedContent: { name: "cachedContents/xyz", contents: 1 } },
    );
    expect(sources).toEqual([{ text: "cached words", uri: "cachedContents/xyz" }]);
  });
});

describe("citations over many sources", () => {
  /** The search as it was: each source's own places, sources in order (the reference). */
  function citedByEachSource(answer: string, sources: CitableSource[]) {
    const words = answer.split(/\s+/).filter(Boolean);
    const indexed = sources.map((source) => {
      const sourceWords = source.text.split(/\s+/).filter(Boolean);
      const places = new Map<string, number[]>();
      for (let index = 0; index + MIN_CITED_WORDS <= sourceWords.length; index++) {
        const gram = sourceWords.slice(index, index + MIN_CITED_WORDS).join(" ");
        const found = places.get(gram) ?? [];
        if (found.length < 64) found.push(index);
        places.set(gram, found);
      }
      return { words: sourceWords, places };
    });
    const runs: { start: number; end: number; source: number }[] = [];
    for (let start = 0; start + MIN_CITED_WORDS <= words.length;) {
      const gram = words.slice(start, start + MIN_CITED_WORDS).join(" ");
      let best = { end: -1, source: -1 };
      indexed.forEach((source, position) => {
        for (const place of source.places.get(gram) ?? []) {
          let end = start + MIN_CITED_WORDS;
          while (end < words.length && source.words[place + end - start] === words[end]) end += 1;
          if (end > best.end) best = { end, source: position };
        }
      });
      if (best.source < 0) start += 1;
      else {
        runs.push({ start, end: best.end, source: best.source });
        start = best.end;
      }
    }
    return runs;
  }

  it("cites what a search of each source in turn cites: the longest copy, then the earliest source", async () => {
    const vocabulary = ["a", "b", "c", "d"];
    let seed = 11;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const phrase = (length: number) =>
      Array.from({ length }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(" ");
    for (let round = 0; round < 20; round++) {
      // Few words, so grams repeat within and across sources (past the 64 places followed).
      const sources = Array.from({ length: 40 }, (_, index) => ({
        text: phrase(200 + 20 * index),
        uri: `files/source-${index}`,
      }));
      const answer = phrase(60);
      const citations = findCitations(answer, await indexCitableSources(sources));
      const expected = citedByEachSource(answer, sources);
      expect(citations.map((citation) => citation.uri)).toEqual(
        expected.map((run) => sources[run.source]!.uri),
      );
      expect(citations).toHaveLength(expected.length);
    }
  });
});
