import { describe, expect, it } from "vitest";
import type { GenerateContentResponse, Part } from "@/lib/gemini/types";
import { thoughtSignatureTokens } from "../tokens/thought-signature";
import { stepsToContents } from "./generate-request";
import { StepAssembler } from "./step-assembler";

function chunk(
  parts: Part[],
  usage: { thoughts?: number; output?: number } = {},
  finishReason?: "STOP" | "MAX_TOKENS" | "SAFETY",
): GenerateContentResponse {
  return {
    candidates: [{ content: { role: "model", parts }, ...(finishReason ? { finishReason } : {}) }],
    usageMetadata: {
      promptTokenCount: 9,
      ...(usage.output ? { candidatesTokenCount: usage.output } : {}),
      ...(usage.thoughts ? { thoughtsTokenCount: usage.thoughts } : {}),
    },
  };
}

describe("StepAssembler", () => {
  it("writes thinking as a signed thought step ahead of the answer, as the service does", () => {
    const assembler = new StepAssembler();
    const events = [
      ...assembler.push(chunk([{ text: "**Planning**", thought: true }], { thoughts: 20 })),
      ...assembler.push(chunk([{ text: "Why do" }], { thoughts: 40, output: 2 })),
      ...assembler.push(chunk([{ text: " programmers?" }], { thoughts: 40, output: 4 }, "STOP")),
      // A Gemini 3 stream's late signature on an empty part: already written, not repeated.
      ...assembler.push(
        chunk([{ text: "", thoughtSignature: "late" }], { thoughts: 40, output: 4 }),
      ),
      ...assembler.end(),
    ];
    expect(events.map((event) => `${event.event_type}:${event.index}`)).toEqual([
      "step.start:0",
      "step.delta:0",
      "step.delta:0",
      "step.stop:0",
      "step.start:1",
      "step.delta:1",
      "step.delta:1",
      "step.stop:1",
    ]);
    expect(events[1]).toMatchObject({
      delta: { content: { text: "**Planning**", type: "text" }, type: "thought_summary" },
    });
    const thought = assembler.steps[0] as { signature: string; summary: unknown };
    // A signature of the engine's own, carrying the thinking it stands for.
    expect(thoughtSignatureTokens(thought.signature)).toBe(40);
    expect(thought.summary).toEqual([{ text: "**Planning**", type: "text" }]);
    expect(assembler.steps[1]).toEqual({
      type: "model_output",
      content: [{ text: "Why do programmers?", type: "text" }],
    });
    expect(assembler.status()).toBe("completed");
    // What a continuation reads back: the thinking's signature on the answer's first part.
    expect(stepsToContents(assembler.steps, new Map())).toEqual([
      {
        role: "model",
        parts: [
          { text: "**Planning**", thought: true },
          { text: "Why do programmers?", thoughtSignature: thought.signature },
        ],
      },
    ]);
  });

  it("makes function calls steps with ids, and asks for the results", () => {
    const assembler = new StepAssembler();
    const events = [
      ...assembler.push(
        chunk(
          [
            {
              functionCall: { name: "get_weather", args: { city: "Paris" } },
              thoughtSignature: "c2ln",
            },
          ],
          { thoughts: 12, output: 5 },
          "STOP",
        ),
      ),
      ...assembler.end(),
    ];
    expect(assembler.steps.map((step) => step.type)).toEqual(["thought", "function_call"]);
    expect(assembler.steps[0]).toMatchObject({ signature: "c2ln" });
    expect(assembler.steps[1]).toMatchObject({
      type: "function_call",
      name: "get_weather",
      arguments: { city: "Paris" },
      id: expect.any(String),
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        delta: { arguments: '{"city":"Paris"}', type: "arguments_delta" },
      }),
    );
    expect(assembler.status()).toBe("requires_action");
  });

  it("ends an answer cut at its limit incomplete, and a blocked one failed with the reason", () => {
    const cut = new StepAssembler();
    cut.push(chunk([{ text: "The image displays" }], { output: 3 }, "MAX_TOKENS"));
    cut.end();
    expect(cut.status()).toBe("incomplete");
    const blocked = new StepAssembler();
    blocked.push({
      promptFeedback: { blockReason: "SAFETY" },
      usageMetadata: { promptTokenCount: 7 },
    });
    const events = blocked.end();
    expect(blocked.status()).toBe("failed");
    expect(blocked.steps).toEqual([
      { error: { code: 3, message: "The prompt was blocked (SAFETY)." }, type: "model_output" },
    ]);
    expect(events.map((event) => event.event_type)).toEqual(["step.start", "step.stop"]);
  });
});
