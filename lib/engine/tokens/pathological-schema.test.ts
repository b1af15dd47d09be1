// Schemas built to make reading or counting a request super-linear: a long chain of $ref that
// ends in a cycle, a huge enum, a wide anyOf, $defs that each refer to every other. Each goes
// through the one canonical reading of a request, the model's rules and the prompt count, on
// a 2.5 model (the `python` notation) and a 3.x one (the markup), and must be counted (the
// refs are not expanded, so the work is linear in the request) or refused with a 400, within
// a generous "did not hang" bound; timings are the bench's business, not this test's.
import { afterAll, describe, expect, it } from "vitest";
import { findModel } from "@/lib/engine/catalog";
import { ApiError } from "@/lib/gemini/api-error";
import { checkGenerateContentRequest, readGenerateContentRequest } from "@/lib/gemini/validate";
import { countRequestTokens, terminateTokenizerWorkers } from "./index";

afterAll(async () => {
  await terminateTokenizerWorkers();
});

const DID_NOT_HANG_MS = 30_000;

function refChain(length: number): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (let index = 0; index < length; index++)
    defs[`N${index}`] = {
      type: "object",
      properties: { next: { $ref: `#/$defs/N${(index + 1) % length}` } },
    };
  return { type: "object", $defs: defs, properties: { start: { $ref: "#/$defs/N0" } } };
}

function everyRefersToEvery(count: number): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (let index = 0; index < count; index++) {
    const properties: Record<string, unknown> = {};
    for (let other = 0; other < count; other++)
      properties[`p${other}`] = { $ref: `#/$defs/D${other}` };
    defs[`D${index}`] = { type: "object", properties };
  }
  return { type: "object", $defs: defs, properties: { root: { $ref: "#/$defs/D0" } } };
}

const SCHEMAS: Record<string, Record<string, unknown>> = {
  "a chain of 20,000 $refs ending in a cycle": refChain(20_000),
  "an enum of 200,000 values": {
    type: "object",
    properties: {
      pick: { type: "string", enum: Array.from({ length: 200_000 }, (_, i) => `v${i}`) },
    },
  },
  "an anyOf of 20,000 branches": {
    type: "object",
    properties: {
      value: {
        anyOf: Array.from({ length: 20_000 }, (_, i) => ({
          type: "object",
          properties: { [`k${i}`]: { type: "string" } },
        })),
      },
    },
  },
  "150 $defs each referring to all 150": everyRefersToEvery(150),
};

describe("pathological function schemas", () => {
  for (const model of ["gemini-2.5-flash", "gemini-3-flash-preview"]) {
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      it(
        `${model}: ${name} is counted or refused with a 400, and does not hang`,
        async () => {
          const traits = findModel(model)!.traits;
          const started = performance.now();
          let outcome: number | string;
          try {
            const request = checkGenerateContentRequest(
              readGenerateContentRequest({
                contents: [{ role: "user", parts: [{ text: "Pick one." }] }],
                tools: [
                  {
                    functionDeclarations: [
                      { name: "pick", description: "Pick a value.", parametersJsonSchema: schema },
                    ],
                  },
                ],
              }),
              traits,
            );
            outcome = (
              await countRequestTokens(traits, { contents: request.contents, tools: request.tools })
            ).totalTokens;
          } catch (error) {
            expect(error).toBeInstanceOf(ApiError);
            expect((error as ApiError).httpStatus).toBe(400);
            outcome = (error as ApiError).message;
          }
          expect(performance.now() - started).toBeLessThan(DID_NOT_HANG_MS);
          if (typeof outcome === "number") expect(outcome).toBeGreaterThan(0);
          else expect(outcome).toMatch(/schema|nest|\$ref|enum|any_?of|large|limit/i);
        },
        DID_NOT_HANG_MS * 2,
      );
    }
  }
});
