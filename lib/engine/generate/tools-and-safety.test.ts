import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import {
  SUPPORTED_HARM_CATEGORIES,
  type FunctionDeclaration,
  type SupportedHarmCategory,
} from "@/lib/gemini/types";
import { gatherContext } from "./context";
import { answerText, collect, generateContent, inputFor, plain } from "@/lib/testing/generation";

const ajv = new Ajv({ strict: false });

const weather: FunctionDeclaration = {
  name: "get_current_weather",
  description: "Get the current weather forecast for a city.",
  parameters: {
    type: "OBJECT",
    properties: {
      city: { type: "STRING" },
      unit: { type: "STRING", enum: ["celsius", "fahrenheit"] },
      days: { type: "INTEGER", minimum: 1, maximum: 7 },
    },
    required: ["city", "unit"],
  },
};
const lights: FunctionDeclaration = {
  name: "set_light_level",
  description: "Dim or brighten the lights in a room.",
  parametersJsonSchema: {
    type: "object",
    properties: { room: { type: "string" }, level: { type: "integer", minimum: 0, maximum: 100 } },
    required: ["room", "level"],
  },
};
const weatherJsonSchema = {
  type: "object",
  properties: {
    city: { type: "string" },
    unit: { type: "string", enum: ["celsius", "fahrenheit"] },
    days: { type: "integer", minimum: 1, maximum: 7 },
  },
  required: ["city", "unit"],
};

describe("function calling", () => {
  it("calls a function with valid args in mode ANY, restricted to allowedFunctionNames", async () => {
    for (let seed = 0; seed < 6; seed++) {
      const response = await generateContent(
        plain(
          "Hello there.",
          { seed },
          {
            tools: [{ functionDeclarations: [weather, lights] }],
            toolConfig: {
              functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["set_light_level"] },
            },
          },
        ),
      );
      const call = response.candidates![0]!.content!.parts[0]!.functionCall!;
      expect(call.name).toBe("set_light_level");
      expect(ajv.validate(lights.parametersJsonSchema as object, call.args)).toBe(true);
      expect(response.candidates![0]!.finishReason).toBe("STOP");
    }
  });

  it("calls the function an AUTO prompt asks for, reusing the prompt's names", async () => {
    const response = await generateContent(
      plain(
        "What is the weather forecast in Paris today?",
        { seed: 1 },
        { tools: [{ functionDeclarations: [weather, lights] }] },
      ),
    );
    const call = response.candidates![0]!.content!.parts[0]!.functionCall!;
    expect(call.name).toBe("get_current_weather");
    expect(ajv.validate(weatherJsonSchema, call.args)).toBe(true);
    expect(call.args!.city).toBe("Paris");
  });

  it("answers in text when AUTO is not asked, when mode is NONE, and after a function response", async () => {
    const unrelated = await generateContent(
      plain(
        "Tell me a short story about a lighthouse.",
        {},
        { tools: [{ functionDeclarations: [weather] }] },
      ),
    );
    expect(
      unrelated.candidates![0]!.content!.parts.every((part) => part.functionCall === undefined),
    ).toBe(true);
    expect(answerText(unrelated).length).toBeGreaterThan(0);
    const none = await generateContent(
      plain(
        "Call get_current_weather for Paris.",
        {},
        {
          tools: [{ functionDeclarations: [weather] }],
          toolConfig: { functionCallingConfig: { mode: "NONE" } },
        },
      ),
    );
    expect(
      none.candidates![0]!.content!.parts.every((part) => part.functionCall === undefined),
    ).toBe(true);
    const input = plain(
      "What is the weather in Paris?",
      { seed: 2 },
      { tools: [{ functionDeclarations: [weather] }] },
    );
    input.request.contents.push(
      {
        role: "model",
        parts: [
          {
            functionCall: { name: "get_current_weather", args: { city: "Paris", unit: "celsius" } },
          },
        ],
      },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "get_current_weather",
              response: { temperature: 21, sky: "sunny" },
            },
          },
        ],
      },
    );
    const answered = await generateContent(input);
    expect(
      answered.candidates![0]!.content!.parts.every((part) => part.functionCall === undefined),
    ).toBe(true);
    expect(answerText(answered).length).toBeGreaterThan(0);
  });

  it("accepts codeExecution and answers in text (nothing is executed locally)", async () => {
    const response = await generateContent(
      plain("Compute the sum of the first ten primes.", {}, { tools: [{ codeExecution: {} }] }),
    );
    expect(answerText(response).length).toBeGreaterThan(0);
    expect(
      response.candidates![0]!.content!.parts.every((part) => part.executableCode === undefined),
    ).toBe(true);
  });

  it("puts the thought signature on the function call of a thinking model", async () => {
    const input = inputFor(
      "gemini-2.5-flash",
      "Set the light level in the kitchen to 40.",
      { seed: 1 },
      { tools: [{ functionDeclarations: [lights] }] },
    );
    const response = await generateContent(input);
    const part = response.candidates![0]!.content!.parts[0]!;
    expect(part.functionCall?.name).toBe("set_light_level");
    expect(part.thoughtSignature).toBeDefined();
  });
});

const HIGH_TERMS: Record<SupportedHarmCategory, string> = {
  HARM_CATEGORY_HARASSMENT: "i will hunt you down",
  HARM_CATEGORY_HATE_SPEECH: "ethnic cleansing",
  HARM_CATEGORY_SEXUALLY_EXPLICIT: "explicit sex",
  HARM_CATEGORY_DANGEROUS_CONTENT: "build a bomb",
  HARM_CATEGORY_CIVIC_INTEGRITY: "rig the election",
};

function settings(
  category: SupportedHarmCategory,
  threshold: "BLOCK_ONLY_HIGH" | "BLOCK_NONE" | "OFF" | "BLOCK_LOW_AND_ABOVE",
) {
  return { safetySettings: [{ category, threshold }] };
}

describe("safety", () => {
  for (const category of SUPPORTED_HARM_CATEGORIES) {
    const term = HIGH_TERMS[category];

    it(`blocks a prompt for ${category} by threshold, unary and stream`, async () => {
      const blocked = await generateContent(
        plain(`Please tell me: ${term}.`, {}, settings(category, "BLOCK_ONLY_HIGH")),
      );
      expect(blocked.candidates).toBeUndefined();
      expect(blocked.promptFeedback!.blockReason).toBe("SAFETY");
      expect(blocked.promptFeedback!.safetyRatings).toEqual([
        { category, probability: "HIGH", blocked: true },
      ]);
      expect(blocked.usageMetadata!.promptTokenCount).toBeGreaterThan(0);
      const chunks = await collect(
        plain(`Please tell me: ${term}.`, {}, settings(category, "BLOCK_ONLY_HIGH")),
      );
      expect(chunks).toHaveLength(1);
      expect(chunks[0]!.promptFeedback!.blockReason).toBe("SAFETY");
      const allowed = await generateContent(
        plain(`Please tell me: ${term}.`, {}, settings(category, "BLOCK_NONE")),
      );
      expect(allowed.promptFeedback).toBeUndefined();
      expect(allowed.candidates![0]!.safetyRatings!.length).toBe(1);
    });

    it(`blocks a candidate for ${category} by threshold, unary and stream`, async () => {
      const prompt = `Decode this base64: ${Buffer.from(term).toString("base64")}`;
      const blocked = await generateContent(
        plain(prompt, {}, settings(category, "BLOCK_ONLY_HIGH")),
      );
      expect(blocked.promptFeedback).toBeUndefined();
      const candidate = blocked.candidates![0]!;
      expect(candidate.finishReason).toBe("SAFETY");
      expect(candidate.content).toBeUndefined();
      expect(candidate.safetyRatings).toEqual([{ category, probability: "HIGH", blocked: true }]);
      const chunks = await collect(plain(prompt, {}, settings(category, "BLOCK_ONLY_HIGH")));
      const last = chunks.at(-1)!.candidates![0]!;
      expect(last.finishReason).toBe("SAFETY");
      expect(last.content).toBeUndefined();
      expect(chunks.map((chunk) => answerText(chunk)).join("")).not.toContain(
        term.split(" ").at(-1),
      );
      const off = await generateContent(plain(prompt, {}, settings(category, "OFF")));
      expect(answerText(off)).toBe(term);
      expect(off.candidates![0]!.safetyRatings).toBeUndefined();
      const none = await generateContent(plain(prompt, {}, settings(category, "BLOCK_NONE")));
      expect(answerText(none)).toBe(term);
      expect(none.candidates![0]!.safetyRatings).toEqual([{ category, probability: "HIGH" }]);
    });
  }

  it("uses the model's default threshold (gemini-1.5-flash blocks MEDIUM and above)", async () => {
    const blocked = await generateContent(inputFor("gemini-1.5-flash", "Is voter fraud common?"));
    expect(blocked.promptFeedback!.blockReason).toBe("SAFETY");
    expect(blocked.promptFeedback!.safetyRatings).toHaveLength(5);
    const fine = await generateContent(
      inputFor("gemini-1.5-flash", "Where is the polling station?"),
    );
    // The default threshold rates without reporting: only categories a request names are.
    expect(fine.candidates![0]!.safetyRatings).toBeUndefined();
    expect(fine.candidates![0]!.finishReason).toBe("STOP");
  });
});

describe("multimodal context", () => {
  it("describes inline media and includes the text of text files", async () => {
    // A 2x3 PNG: signature, IHDR chunk (width 2, height 3) and an empty IEND; enough for the header probe.
    const png = Buffer.from(
      "89504e470d0a1a0a0000000d49484452000000020000000308060000009d4a2e7a0000000049454e44ae426082",
      "hex",
    );
    const context = await gatherContext(
      {
        contents: [
          {
            role: "user",
            parts: [
              { text: "What is in these?" },
              { inlineData: { mimeType: "image/png", data: png.toString("base64") } },
              {
                inlineData: {
                  mimeType: "text/plain",
                  data: Buffer.from("The lighthouse keeper counted ships.").toString("base64"),
                },
              },
              { fileData: { mimeType: "application/pdf", fileUri: "files/abc" } },
            ],
          },
        ],
      },
      async () => ({
        mimeType: "application/pdf",
        displayName: "report.pdf",
        probed: { kind: "document", sizeBytes: 2048, pages: 3 },
      }),
    );
    const text = context.documents.join("\n");
    expect(text).toContain("image/png");
    expect(text).toContain("2x3 pixels");
    expect(text).toContain("The lighthouse keeper counted ships.");
    expect(text).toContain("3 pages");
    expect(text).toContain("report.pdf");
  });
});
