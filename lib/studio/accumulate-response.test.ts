import { describe, expect, it } from "vitest";
import {
  accumulateResponse,
  candidateText,
  EMPTY_RESPONSE,
  responseTextLength,
  revealPrefix,
} from "./accumulate-response";
import type { GenerateContentResponse } from "@/lib/gemini/types";

function textChunk(
  index: number,
  text: string,
  extra: Record<string, unknown> = {},
): GenerateContentResponse {
  return {
    candidates: [{ index, content: { role: "model", parts: [{ text, ...extra }] } }],
    responseId: "r",
  };
}

describe("accumulateResponse", () => {
  it("joins text deltas per candidate, keeps thoughts apart and takes the last metadata", () => {
    const chunks: GenerateContentResponse[] = [
      textChunk(0, "Let me think", { thought: true }),
      textChunk(0, " more", { thought: true }),
      textChunk(0, "Hello"),
      {
        candidates: [
          textChunk(0, " world").candidates![0]!,
          textChunk(1, "Other")!.candidates![0]!,
        ],
      },
      {
        candidates: [
          {
            index: 0,
            finishReason: "STOP",
            safetyRatings: [{ category: "HARM_CATEGORY_HARASSMENT", probability: "NEGLIGIBLE" }],
          },
        ],
        usageMetadata: { totalTokenCount: 9 },
      },
    ];
    const result = chunks.reduce(accumulateResponse, EMPTY_RESPONSE);
    expect(result.candidates).toHaveLength(2);
    expect(result.candidates[0]?.content?.parts).toEqual([
      { text: "Let me think more", thought: true },
      { text: "Hello world" },
    ]);
    expect(candidateText(result.candidates[0])).toBe("Hello world");
    expect(candidateText(result.candidates[1])).toBe("Other");
    expect(result.candidates[0]?.finishReason).toBe("STOP");
    expect(result.usageMetadata?.totalTokenCount).toBe(9);
    expect(result.responseId).toBe("r");
  });

  it("keeps function calls as their own parts and does not mutate the previous state", () => {
    const first = accumulateResponse(EMPTY_RESPONSE, textChunk(0, "Calling"));
    const second = accumulateResponse(first, {
      candidates: [
        {
          index: 0,
          content: {
            role: "model",
            parts: [{ functionCall: { name: "get_weather", args: { city: "Oslo" } } }],
          },
        },
      ],
    });
    expect(first.candidates[0]?.content?.parts).toHaveLength(1);
    expect(second.candidates[0]?.content?.parts[1]?.functionCall?.name).toBe("get_weather");
  });

  it("concatenates the logprobs of every chunk and keeps the last chunk's citations", () => {
    const chunks: GenerateContentResponse[] = [
      {
        candidates: [
          {
            index: 0,
            content: { role: "model", parts: [{ text: "Hi" }] },
            logprobsResult: {
              chosenCandidates: [{ token: "Hi", logProbability: -0.1 }],
              topCandidates: [{ candidates: [{ token: "Hi", logProbability: -0.1 }] }],
            },
          },
        ],
      },
      {
        candidates: [
          {
            index: 0,
            content: { role: "model", parts: [{ text: " there" }] },
            logprobsResult: {
              chosenCandidates: [{ token: " there", logProbability: -0.5 }],
              topCandidates: [{ candidates: [{ token: " you", logProbability: -0.9 }] }],
            },
          },
        ],
      },
      {
        candidates: [
          {
            index: 0,
            finishReason: "STOP",
            citationMetadata: { citationSources: [{ startIndex: 0, endIndex: 8 }] },
          },
        ],
      },
    ];
    const candidate = chunks.reduce(accumulateResponse, EMPTY_RESPONSE).candidates[0]!;
    expect(candidate.logprobsResult?.chosenCandidates?.map((step) => step.token)).toEqual([
      "Hi",
      " there",
    ]);
    expect(
      candidate.logprobsResult?.topCandidates?.map((step) => step.candidates?.[0]?.token),
    ).toEqual(["Hi", " you"]);
    expect(candidate.citationMetadata?.citationSources).toEqual([{ startIndex: 0, endIndex: 8 }]);
  });

  it("joins streamed pieces of audio into one recording", () => {
    const pieces = [Buffer.from([1, 2, 3, 4]), Buffer.from([5, 6]), Buffer.from([7, 8, 9, 10, 11])];
    const chunks: GenerateContentResponse[] = pieces.map((piece) => ({
      candidates: [
        {
          index: 0,
          content: {
            role: "model",
            parts: [
              {
                inlineData: {
                  mimeType: "audio/L16;codec=pcm;rate=24000",
                  data: piece.toString("base64"),
                },
              },
            ],
          },
        },
      ],
    }));
    const parts = chunks.reduce(accumulateResponse, EMPTY_RESPONSE).candidates[0]!.content!.parts;
    expect(parts).toHaveLength(1);
    expect([...Buffer.from(parts[0]!.inlineData!.data, "base64")]).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
    ]);
  });

  it("keeps prompt feedback of a blocked prompt with no candidates", () => {
    const result = accumulateResponse(EMPTY_RESPONSE, {
      promptFeedback: {
        blockReason: "SAFETY",
        safetyRatings: [
          { category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "HIGH", blocked: true },
        ],
      },
    });
    expect(result.candidates).toEqual([]);
    expect(result.promptFeedback?.blockReason).toBe("SAFETY");
  });
});

describe("revealPrefix", () => {
  it("cuts each candidate's text at the limit and holds back the finish reason", () => {
    const response = {
      candidates: [
        {
          index: 0,
          finishReason: "STOP" as const,
          content: { role: "model", parts: [{ text: "abcd", thought: true }, { text: "efghij" }] },
        },
        {
          index: 1,
          finishReason: "STOP" as const,
          content: { role: "model", parts: [{ text: "xy" }] },
        },
      ],
    };
    expect(responseTextLength(response)).toBe(10);
    const shown = revealPrefix(response, 6);
    expect(shown.candidates[0]?.content?.parts).toEqual([
      { text: "abcd", thought: true },
      { text: "ef" },
    ]);
    expect(shown.candidates[0]?.finishReason).toBeUndefined();
    expect(shown.candidates[1]).toBe(response.candidates[1]);
    expect(revealPrefix(response, 10)).toBe(response);
  });
});
