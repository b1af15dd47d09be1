/**
 * The Interactions API's JSON answers: the bytes of JSON.stringify, short or long, with a
 * speech answer's audio written from its bytes.
 */
import { describe, expect, it } from "vitest";
import { setPiecedText } from "@/lib/runtime/pieced-text";
import { interactionJsonResponse } from "./interaction-responses";

describe("interactionJsonResponse", () => {
  it("answers JSON.stringify's text, in one piece or piece by piece", async () => {
    const small = { id: "v1_a", status: "completed", steps: [{ type: "model_output" }] };
    const bytes = new Uint8Array(600_001).map((_, index) => (index * 13) % 256);
    const audio = { type: "audio", data: "", mime_type: "audio/L16;codec=pcm;rate=24000" };
    setPiecedText(audio, "data", [bytes.subarray(0, 24_000), bytes.subarray(24_000)]);
    const large = { id: "v1_b", steps: [{ content: [audio], type: "model_output" }], note: "é😀" };
    for (const value of [small, large]) {
      const response = await interactionJsonResponse(value);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await response.text()).toBe(JSON.stringify(value));
    }
  });
});
