import { describe, expect, it } from "vitest";
import type { GenerateContentRequest } from "@/lib/gemini/types";
import {
  curlSnippet,
  javascriptSnippet,
  pythonSnippet,
  restSnippet,
  sdkConfig,
  streamUrl,
  type CodeInput,
} from "./get-code";

const request: GenerateContentRequest = {
  contents: [
    {
      role: "user",
      parts: [
        { text: 'Say "hi"\nthen stop' },
        { fileData: { fileUri: "http://127.0.0.1:3000/v1beta/files/abc", mimeType: "text/plain" } },
        { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
      ],
    },
  ],
  systemInstruction: { parts: [{ text: "Be brief." }] },
  generationConfig: {
    temperature: 0.5,
    responseMimeType: "application/json",
    responseSchema: {
      type: "OBJECT",
      properties: { firstName: { type: "STRING" } },
      propertyOrdering: ["firstName"],
    },
    thinkingConfig: { thinkingBudget: 0 },
  },
  safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH" }],
  tools: [
    {
      functionDeclarations: [
        { name: "lookUp", parametersJsonSchema: { type: "object", properties: { cityName: {} } } },
      ],
    },
    { googleSearch: {} },
  ],
  toolConfig: { functionCallingConfig: { mode: "AUTO" } },
};

const studio: CodeInput = {
  model: "models/gemini-2.5-flash",
  request,
  target: { kind: "studio", origin: "http://127.0.0.1:3000/" },
};

describe("get code", () => {
  it("posts to the streaming method of this studio or of the service", () => {
    expect(streamUrl(studio)).toBe(
      "http://127.0.0.1:3000/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    );
    expect(streamUrl({ ...studio, target: { kind: "service" } })).toBe(
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    );
  });

  it("curl sends the request byte for byte in a quoted here-document, key from the environment", () => {
    const snippet = curlSnippet(studio);
    const body = /<<'JSON'\n([\s\S]*)\nJSON\n$/.exec(snippet)?.[1];
    expect(JSON.parse(body!)).toEqual(request);
    expect(snippet).toContain('-H "x-goog-api-key: $GEMINI_API_KEY"');
  });

  it("the REST view is the body as sent", () => {
    const snippet = restSnippet(studio);
    expect(JSON.parse(snippet.slice(snippet.indexOf("\n\n") + 2))).toEqual(request);
  });

  it("the SDK config is the request without contents, generation settings flattened", () => {
    const config = sdkConfig(request);
    expect(config).not.toHaveProperty("contents");
    expect(config).not.toHaveProperty("generationConfig");
    expect(config).toMatchObject({
      temperature: 0.5,
      systemInstruction: request.systemInstruction,
      tools: request.tools,
    });
  });

  it("JavaScript passes contents and config as the SDK takes them", () => {
    const snippet = javascriptSnippet(studio);
    expect(snippet).toContain("apiKey: process.env.GEMINI_API_KEY");
    expect(snippet).toContain('baseUrl: "http://127.0.0.1:3000"');
    expect(snippet).toContain('model: "gemini-2.5-flash"');
    expect(snippet).toContain("generateContentStream");
    expect(javascriptSnippet({ ...studio, target: { kind: "service" } })).not.toContain("baseUrl");
  });

  it("Python writes snake_case fields but keeps the caller's names, and decodes bytes", () => {
    const snippet = pythonSnippet(studio);
    expect(snippet.startsWith("import base64\n")).toBe(true);
    expect(snippet).toContain('"system_instruction": {');
    expect(snippet).toContain('"response_mime_type": "application/json"');
    expect(snippet).toContain('"property_ordering": [');
    // Property names and JSON Schema documents are the caller's data.
    expect(snippet).toContain('"firstName": {');
    expect(snippet).toContain('"cityName": {}');
    expect(snippet).toContain('"data": base64.b64decode("iVBORw0KGgo=")');
    expect(snippet).toContain('"file_uri": "http://127.0.0.1:3000/v1beta/files/abc"');
    expect(snippet).toContain('"text": "Say \\"hi\\"\\nthen stop"');
    expect(snippet).toContain('api_key=os.environ["GEMINI_API_KEY"]');
    expect(snippet).not.toMatch(/\btrue\b|\bnull\b/);
  });
});

describe("get code with a person's key", () => {
  const key = { name: "laptop", prefix: "gsk_Ab12Cd" };
  it("names the key it expects in GEMINI_API_KEY, never showing it again", () => {
    const input = { ...studio, key };
    for (const snippet of [curlSnippet(input), pythonSnippet(input), javascriptSnippet(input)]) {
      expect(snippet).toContain('GEMINI_API_KEY: your studio key "laptop" (gsk_Ab12Cd…)');
      expect(snippet).not.toContain("gsk_Ab12Cd'");
    }
    expect(restSnippet(input)).toContain("x-goog-api-key: $GEMINI_API_KEY");
  });

  it("sets GEMINI_API_KEY to a key just made, in every language", () => {
    const secret = `gsk_${"x".repeat(43)}`;
    const input = { ...studio, key: { ...key, secret } };
    expect(curlSnippet(input)).toContain(`export GEMINI_API_KEY='${secret}'\ncurl`);
    expect(pythonSnippet(input)).toContain(`os.environ["GEMINI_API_KEY"] = "${secret}"`);
    expect(javascriptSnippet(input)).toContain(`process.env.GEMINI_API_KEY = "${secret}";`);
    expect(restSnippet(input)).toContain(`x-goog-api-key: ${secret}\n`);
  });

  it("leaves a snippet for the service alone", () => {
    const input: CodeInput = {
      ...studio,
      target: { kind: "service" },
      key: { ...key, secret: "s" },
    };
    expect(curlSnippet(input)).not.toContain("laptop");
    expect(restSnippet(input)).toContain("x-goog-api-key: $GEMINI_API_KEY");
  });
});
