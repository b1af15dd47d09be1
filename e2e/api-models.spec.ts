import { expect, test } from "@playwright/test";
import { api, sdkClient } from "./support/api";

interface ErrorBody {
  error: {
    code: number;
    message: string;
    status: string;
    details?: { "@type": string; reason?: string }[];
  };
}

test.describe("models through the official SDK", () => {
  test("models.list iterates every page and ends", async () => {
    const ai = sdkClient();
    const pager = await ai.models.list({ config: { pageSize: 2 } });
    const names: string[] = [];
    for await (const model of pager) names.push(model.name ?? "");
    expect(names).toContain("models/gemini-2.5-flash");
    expect(names).toContain("models/gemini-1.5-flash");
    expect(new Set(names).size).toBe(names.length);
  });

  test("models.get returns limits and traits", async () => {
    const model = await sdkClient().models.get({ model: "gemini-2.5-flash" });
    expect(model.name).toBe("models/gemini-2.5-flash");
    expect(model.inputTokenLimit).toBe(1_048_576);
    expect(model.outputTokenLimit).toBe(65_536);
    expect(model.supportedActions).toContain("countTokens");
  });

  test("countTokens counts with the family vocabulary and the role token", async () => {
    const ai = sdkClient();
    const text = "The quick brown fox jumps over the lazy dog.";
    expect(
      (await ai.models.countTokens({ model: "gemini-2.5-flash", contents: text })).totalTokens,
    ).toBe(11);
    expect(
      (await ai.models.countTokens({ model: "gemini-2.0-flash", contents: text })).totalTokens,
    ).toBe(10);
  });
});

test.describe("raw API behaviour", () => {
  test("pageSize is coerced to 1000 and the last page has no nextPageToken", async () => {
    const response = await api("/v1beta/models?pageSize=5000");
    expect(response.status).toBe(200);
    const body = response.body as { models: unknown[]; nextPageToken?: string };
    expect(body.models.length).toBeGreaterThan(5);
    expect("nextPageToken" in body).toBe(false);
    expect(response.headers.get("content-type")).toBe("application/json; charset=UTF-8");
  });

  test("a page token from another page size is refused", async () => {
    const first = (await api("/v1beta/models?pageSize=2")).body as { nextPageToken: string };
    const response = await api(
      `/v1beta/models?pageSize=3&pageToken=${encodeURIComponent(first.nextPageToken)}`,
    );
    expect(response.status).toBe(400);
    expect((response.body as ErrorBody).error.status).toBe("INVALID_ARGUMENT");
    expect((response.body as ErrorBody).error.message).toContain("page_token");
  });

  test("the /v1 alias serves the same surface", async () => {
    const response = await api("/v1/models/gemini-2.0-flash");
    expect(response.status).toBe(200);
    expect((response.body as { name: string }).name).toBe("models/gemini-2.0-flash");
  });

  test("an unknown model is 404 NOT_FOUND in the service's words", async () => {
    const response = await api("/v1beta/models/gemini-9-ultra:countTokens", {
      method: "POST",
      body: { contents: [{ parts: [{ text: "hi" }] }] },
    });
    expect(response.status).toBe(404);
    const body = response.body as ErrorBody;
    expect(body.error).toMatchObject({ code: 404, status: "NOT_FOUND" });
    expect(body.error.message).toContain(
      "models/gemini-9-ultra is not found for API version v1beta",
    );
  });

  test("an unknown path is 404 and a wrong method 405, both as error bodies", async () => {
    const unknown = await api("/v1beta/nothing/here");
    expect(unknown.status).toBe(404);
    expect((unknown.body as ErrorBody).error.status).toBe("NOT_FOUND");
    const wrongMethod = await api("/v1beta/models", { method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
    expect((wrongMethod.body as ErrorBody).error.code).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET");
  });

  test("countTokens with neither or both inputs is refused", async () => {
    const neither = await api("/v1beta/models/gemini-2.5-flash:countTokens", {
      method: "POST",
      body: {},
    });
    expect(neither.status).toBe(400);
    expect((neither.body as ErrorBody).error.message).toBe(
      "CountTokens requires generate_content_request or contents to be set.",
    );
    const both = await api("/v1beta/models/gemini-2.5-flash:countTokens", {
      method: "POST",
      body: {
        contents: [{ parts: [{ text: "a" }] }],
        generateContentRequest: {
          model: "models/gemini-2.5-flash",
          contents: [{ parts: [{ text: "a" }] }],
        },
      },
    });
    expect(both.status).toBe(400);
    expect((both.body as ErrorBody).error.message).toMatch(/mutually exclusive/);
  });

  test("malformed JSON and unknown fields are 400 naming the problem", async () => {
    const malformed = await api("/v1beta/models/gemini-2.5-flash:countTokens", {
      method: "POST",
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    expect((malformed.body as ErrorBody).error.message).toContain("Invalid JSON payload received");
    const unknown = await api("/v1beta/models/gemini-2.5-flash:countTokens", {
      method: "POST",
      body: { contents: [{ parts: [{ text: "a" }] }], bogus: 1 },
    });
    expect(unknown.status).toBe(400);
    expect((unknown.body as ErrorBody).error.message).toContain('Unknown name "bogus"');
  });
});
