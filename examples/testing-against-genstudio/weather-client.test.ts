// Tests a small client of the service against Genstudio's emulator with Vitest and @google/genai.
// Run a studio (`npm run studio`), then: GENSTUDIO_URL=http://127.0.0.1:3000 npx vitest run
import { ApiError, GoogleGenAI } from "@google/genai";
import { afterEach, expect, test } from "vitest";

const url = process.env.GENSTUDIO_URL ?? "http://127.0.0.1:3000";
const key = process.env.GENSTUDIO_KEY ?? "genstudio-dev-key";
const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: url } });

/** Registers scenarios for this test's key (they apply to its requests only). */
async function scenario(body: unknown): Promise<void> {
  const response = await fetch(`${url}/emulator/scenarios`, {
    method: "POST",
    headers: { "x-goog-api-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

afterEach(async () => {
  await fetch(`${url}/emulator/scenarios`, {
    method: "DELETE",
    headers: { "x-goog-api-key": key },
  });
});

/** The code under test: streams a city's weather, and tells a tool call apart. */
async function streamedForecast(city: string): Promise<string> {
  const stream = await ai.models.generateContentStream({
    model: "gemini-2.5-flash",
    contents: `What is the weather in ${city}?`,
  });
  let text = "";
  for await (const chunk of stream) text += chunk.text ?? "";
  return text;
}

test("streams the scripted chunks in order", async () => {
  await scenario({
    match: { operation: "stream" },
    respond: { chunks: ["Sun", "ny, ", "21 °C."] },
  });
  expect(await streamedForecast("Paris")).toBe("Sunny, 21 °C.");
});

test("sees a stream break after two chunks", async () => {
  await scenario({
    match: { operation: "stream" },
    respond: { chunks: ["Sun", "ny", "!"], failAfterChunks: 2, error: { code: 503 } },
  });
  await expect(streamedForecast("Paris")).rejects.toThrow(/UNAVAILABLE|overloaded/);
});

test("gets the function call it declared, with the given arguments", async () => {
  await scenario({
    match: { functionName: "get_weather" },
    respond: { functionCalls: [{ name: "get_weather", args: { city: "Paris" } }] },
  });
  const answer = await ai.models.generateContent({
    model: "gemini-2.5-flash",
    contents: "Weather in Paris?",
    config: {
      tools: [
        {
          functionDeclarations: [
            {
              name: "get_weather",
              parametersJsonSchema: { type: "object", properties: { city: { type: "string" } } },
            },
          ],
        },
      ],
    },
  });
  expect(answer.functionCalls?.[0]).toMatchObject({ name: "get_weather", args: { city: "Paris" } });
});

test("sees the service's 429 with its RetryInfo", async () => {
  await scenario({
    respond: {
      error: {
        code: 429,
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "3s" }],
      },
    },
    times: 1,
  });
  const failure = await streamedForecast("Oslo").catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ApiError);
  expect((failure as ApiError).status).toBe(429);
  expect((failure as ApiError).message).toContain("RetryInfo");
});
