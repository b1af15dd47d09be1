// The rule checks as steps: a large request is checked one part or schema node at a
// time, with exactly the outcome of the check run at once.
import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error";
import { FLASH } from "../testing/model-traits";
import { requestReferences, requestReferencesSteps } from "./references";
import type { GenerateContentRequest } from "./types";
import {
  checkCountTokensRequest,
  checkCountTokensRequestSteps,
  checkGenerateContentRequest,
  checkGenerateContentRequestSteps,
  readGenerateContentRequest,
} from "./validate";

/** Runs steps to their end, counting them; the result or the error thrown. */
function stepped<T>(steps: Generator<void, T, void>): { steps: number; outcome: unknown } {
  let count = 0;
  try {
    for (;;) {
      const next = steps.next();
      if (next.done) return { steps: count, outcome: next.value };
      count += 1;
    }
  } catch (error) {
    return { steps: count, outcome: error };
  }
}

function atOnce(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    return error;
  }
}

function request(parts: number, properties: number, broken: boolean): GenerateContentRequest {
  return readGenerateContentRequest({
    contents: [
      {
        role: "user",
        parts: Array.from({ length: parts }, (_, index) =>
          broken && index % 997 === 5 ? { functionCall: { name: "" } } : { text: `part ${index}` },
        ),
      },
    ],
    tools: [
      {
        functionDeclarations: [
          {
            name: "describe",
            parameters: {
              type: "OBJECT",
              properties: Object.fromEntries(
                Array.from({ length: properties }, (_, index) => [
                  `option_${index}`,
                  broken && index % 101 === 3
                    ? { type: "ARRAY" }
                    : { type: "STRING", enum: ["a", "b"] },
                ]),
              ),
              required: broken ? ["missing"] : [],
            },
          },
        ],
      },
    ],
    toolConfig: {
      functionCallingConfig: {
        mode: "ANY",
        allowedFunctionNames: broken ? ["describe", "nothing", "else"] : ["describe"],
      },
    },
  });
}

describe("rule checks as steps", () => {
  it("check a request of 20,000 parts and 5,000 properties a part or node at a time, as at once", () => {
    for (const broken of [false, true]) {
      const large = request(20_000, 5_000, broken);
      const sliced = stepped(checkGenerateContentRequestSteps(large, FLASH, { stream: true }));
      expect(sliced.steps).toBeGreaterThanOrEqual(25_000);
      const whole = atOnce(() => checkGenerateContentRequest(large, FLASH, { stream: true }));
      expect(sliced.outcome).toStrictEqual(whole);
      if (broken) {
        expect(whole).toBeInstanceOf(ApiError);
        expect((whole as ApiError).message).toContain("function_call.name is required");
        expect((whole as ApiError).message).toContain('"nothing" is not a declared function');
      }
      const counted = { generateContentRequest: large };
      expect(stepped(checkCountTokensRequestSteps(counted, FLASH)).outcome).toStrictEqual(
        atOnce(() => checkCountTokensRequest(counted, FLASH)),
      );
    }
  });

  it("find every reference of a large request a list item at a time", () => {
    const large = readGenerateContentRequest({
      contents: Array.from({ length: 3_000 }, (_, index) => ({
        parts: [{ fileData: { fileUri: `files/file-${index}`, mimeType: "text/plain" } }],
      })),
    });
    const input = { operation: "generateContent" as const, request: large };
    const sliced = stepped(requestReferencesSteps(input));
    expect(sliced.steps).toBeGreaterThanOrEqual(3_000);
    const found = sliced.outcome as ReturnType<typeof requestReferences>;
    expect(found.map((reference) => reference.path)).toEqual(
      requestReferences(input).map((reference) => reference.path),
    );
    expect(found).toHaveLength(3_000);
  });
});
