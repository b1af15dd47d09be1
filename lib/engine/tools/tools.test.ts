import { describe, expect, it } from "vitest";
import { generateContent, streamGenerateContent } from "@/lib/engine/generate";
import { inputFor } from "@/lib/testing/generation";
import { answerWithCode, arithmeticExpression, planCode } from "./code-execution";
import { answerFromDocuments } from "./grounding";
import { runPython } from "./python-sandbox";
import { cachedContentDenied } from "@/lib/gemini/resource-errors";
import { retrieveUrls, urlsOf, type UrlResolvers } from "./url-context";

const sliceBytes = (text: string, start: number, end: number) =>
  Buffer.from(text, "utf8").subarray(start, end).toString("utf8");

describe("code execution", () => {
  it("writes Python only from the prompt's numbers and operators", () => {
    expect(arithmeticExpression("What is (12.5 * 4) + 3^2, roughly?")).toBe("(12.5 * 4) + 3 ** 2");
    expect(arithmeticExpression("what is 7 divided by 2 plus 1")).toBe("7 / 2 + 1");
    expect(arithmeticExpression("I have 3 apples and 4 pears")).toBeNull();
    expect(planCode("What is the median of 3, 9, 4, 1 and 7?")?.code).toBe(
      "import statistics\n\nvalues = [3, 9, 4, 1, 7]\nresult = statistics.median(values)\nprint(result)",
    );
    expect(planCode("Tell me about the sea")).toBeNull();
  });

  it("runs the code for real and reports the service's outcome", async () => {
    const ok = await runPython("print(sum([3, 9, 4]) * 2)");
    expect(ok).toEqual({ outcome: "OUTCOME_OK", output: "32\n", executed: true });
    const failed = await runPython("print(1 / 0)");
    expect(failed.outcome).toBe("OUTCOME_FAILED");
    expect(failed.output).toContain("ZeroDivisionError: division by zero");
  });

  it("is sandboxed: no imports but math and statistics, no files, bounded memory and time", async () => {
    expect((await runPython("import os\nprint(os.getcwd())")).output).toContain("ImportError");
    expect((await runPython("open('/etc/passwd').read()")).output).toContain("NameError");
    expect((await runPython("x = [0] * (1024 * 1024 * 1024)")).output).toContain("MemoryError");
    const spin = await runPython("while True:\n    pass");
    expect(spin.outcome).toBe("OUTCOME_DEADLINE_EXCEEDED");
  }, 30_000);

  it("says honestly that nothing ran when there is no interpreter", async () => {
    const python = "/nonexistent/python3";
    expect(await runPython("print(1)", { python })).toEqual({
      outcome: "OUTCOME_FAILED",
      output: "Not executed: this studio's server has no Python interpreter (python3).",
      executed: false,
    });
    const answer = await answerWithCode("What is 6 * 7?", { python });
    expect(answer?.code).toBe("result = 6 * 7\nprint(result)");
    expect(answer?.result.executed).toBe(false);
    expect(answer?.text).toBe(
      "I wrote the code above, but it could not be run here, so I have no result to report.",
    );
  });

  it("answers an arithmetic question with executableCode, codeExecutionResult, then the result", async () => {
    const input = inputFor("gemini-2.5-flash", "What is 17 * 23 + 4?", {
      thinkingConfig: { thinkingBudget: 0 },
    });
    input.request.tools = [{ codeExecution: {} }];
    const response = await generateContent(input);
    const parts = response.candidates?.[0]?.content?.parts ?? [];
    expect(parts[0]).toEqual({
      executableCode: { language: "PYTHON", code: "result = 17 * 23 + 4\nprint(result)" },
    });
    expect(parts[1]).toEqual({ codeExecutionResult: { outcome: "OUTCOME_OK", output: "395\n" } });
    expect(
      parts
        .slice(2)
        .map((part) => part.text)
        .join(""),
    ).toBe("17 * 23 + 4 = 395");
  });
});

describe("grounding in the local document set", () => {
  it("answers from the documents, with supports at the segments' UTF-8 byte offsets", () => {
    const answer = answerFromDocuments("Why does the sky look blue at noon?");
    expect(answer).not.toBeNull();
    const metadata = answer!.groundingMetadata;
    expect(metadata.webSearchQueries).toEqual(["sky look blue noon"]);
    expect(metadata.searchEntryPoint?.renderedContent).toContain(
      '<span class="chip">sky look blue noon</span>',
    );
    // The service's googleSearch shape: web sources, no confidence scores, startIndex 0 left out.
    expect(metadata.groundingChunks?.[0]?.web?.uri).toMatch(
      /^genstudio:documents\/science-and-nature\/\d+$/,
    );
    expect(metadata.groundingSupports?.[0]?.segment).not.toHaveProperty("startIndex");
    for (const support of metadata.groundingSupports ?? []) {
      const { startIndex = 0, endIndex, text } = support.segment!;
      expect(sliceBytes(answer!.text, startIndex, endIndex!)).toBe(text);
      const chunk = metadata.groundingChunks![support.groundingChunkIndices![0]!]!;
      expect(chunk.web?.title).toMatch(/^Science and nature, document \d+$/);
      expect(support).not.toHaveProperty("confidenceScores");
    }
    expect(answerFromDocuments("zqxv wplk")).toBeNull();
  });

  it("streams the grounded answer with its metadata on the last chunk", async () => {
    const input = inputFor("gemini-2.5-flash", "How do plants make food from light?", {
      thinkingConfig: { thinkingBudget: 0 },
    });
    input.request.tools = [{ googleSearch: {} }];
    const chunks = [];
    for await (const chunk of streamGenerateContent(input)) chunks.push(chunk);
    const last = chunks.at(-1)!.candidates![0]!;
    expect(last.finishReason).toBe("STOP");
    expect(last.groundingMetadata?.groundingSupports?.length).toBeGreaterThan(0);
    expect(chunks.slice(0, -1).some((chunk) => chunk.candidates?.[0]?.groundingMetadata)).toBe(
      false,
    );
  });

  it("a model without the tool answers without it", async () => {
    const input = inputFor("gemini-2.5-flash-preview-tts", "Why is the sky blue?");
    input.request.tools = [{ googleSearch: {} }];
    const response = await generateContent(input);
    expect(response.candidates?.[0]?.groundingMetadata).toBeUndefined();
  });
});

describe("url context", () => {
  it("finds each URL once, without trailing punctuation", () => {
    expect(
      urlsOf("Read https://a.example/x, then http://b.example/y. And https://a.example/x!"),
    ).toEqual(["https://a.example/x", "http://b.example/y"]);
  });

  const CACHE_TEXT =
    "The lighthouse keeper writes the weather down every evening. Ships pass at dawn. Nets dry on the quay.";
  const origin = "http://127.0.0.1:3000";
  const resolvers: UrlResolvers = {
    resolveFile: async () => {
      throw new Error("no file");
    },
    // Only the caller's one cache: any other name is the service's 403, as CacheService answers.
    resolveCachedContent: async (name) => {
      if (name !== "cachedContents/mine") throw cachedContentDenied();
      return {
        systemInstruction: { parts: [{ text: "Logbook of the north light." }] },
        contents: [{ role: "user", parts: [{ text: CACHE_TEXT }] }],
      };
    },
  };

  it("reads the caller's cached contents by their URL; another owner's or a missing one fails as unreachable", async () => {
    const retrieved = await retrieveUrls(
      `Compare ${origin}/v1beta/cachedContents/mine with ${origin}/v1beta/cachedContents/theirs.`,
      resolvers,
    );
    expect(retrieved!.urlContextMetadata).toEqual({
      urlMetadata: [
        {
          retrievedUrl: `${origin}/v1beta/cachedContents/mine`,
          urlRetrievalStatus: "URL_RETRIEVAL_STATUS_SUCCESS",
        },
        {
          retrievedUrl: `${origin}/v1beta/cachedContents/theirs`,
          urlRetrievalStatus: "URL_RETRIEVAL_STATUS_ERROR",
        },
      ],
    });
    expect(retrieved!.text).toBe(
      `${origin}/v1beta/cachedContents/mine says: Logbook of the north light. The lighthouse keeper writes the weather down every evening.`,
    );
  });

  it("answers with the cache's text and the metadata on the last chunk", async () => {
    const input = inputFor(
      "gemini-2.5-flash",
      `What does https://studio.example/v1/cachedContents/mine say?`,
      { thinkingConfig: { thinkingBudget: 0 } },
    );
    input.request.tools = [{ urlContext: {} }];
    const chunks = [];
    for await (const chunk of streamGenerateContent({ ...input, ...resolvers, stream: true }))
      chunks.push(chunk);
    const text = chunks
      .flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? [])
      .map((part) => part.text ?? "")
      .join("");
    expect(text).toContain("Logbook of the north light. The lighthouse keeper writes the weather");
    expect(chunks.at(-1)!.candidates![0]!.urlContextMetadata).toEqual({
      urlMetadata: [
        {
          retrievedUrl: "https://studio.example/v1/cachedContents/mine",
          urlRetrievalStatus: "URL_RETRIEVAL_STATUS_SUCCESS",
        },
      ],
    });
    expect(chunks.slice(0, -1).some((chunk) => chunk.candidates?.[0]?.urlContextMetadata)).toBe(
      false,
    );
  });
});
