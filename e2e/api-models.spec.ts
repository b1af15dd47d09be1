import { expect, test } from "@playwright/test";
import { GoogleGenAI } from "@google/genai";
import { api, sdkClient } from "./support/api";
import {
  DEVELOPMENT_KEY,
  GATEWAY_KEYS,
  gatewayServer,
  localServer,
  type ServerInfo,
} from "./support/servers";

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
    expect(names).toContain("models/gemini-flash-latest");
    // Models the service no longer lists are not listed here either.
    expect(names).not.toContain("models/gemini-1.5-flash");
    expect(new Set(names).size).toBe(names.length);
  });

  test("an unlisted model is still served, a retired one refused, and an alias answers as the model it points to", async () => {
    const ai = sdkClient();
    expect((await ai.models.get({ model: "gemini-2.0-flash" })).name).toBe(
      "models/gemini-2.0-flash",
    );
    // The service's newest recording of 1.5 Flash is its 404; the engine answers the same.
    await expect(
      ai.models.generateContent({ model: "gemini-1.5-flash", contents: "Say hello." }),
    ).rejects.toMatchObject({ status: 404 });
    const answer = await ai.models.generateContent({
      model: "gemini-flash-latest",
      contents: "Say hello.",
      config: { maxOutputTokens: 8 },
    });
    const alias = await ai.models.get({ model: "gemini-flash-latest" });
    expect(alias.displayName).toBe("Gemini Flash Latest");
    expect(answer.modelVersion).toMatch(/^gemini-\d/);
    expect(answer.modelVersion).not.toBe("gemini-flash-latest");
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
    // 2.0's countTokens counts as 2.5's (a role token, recorded); its generations add none.
    expect(
      (await ai.models.countTokens({ model: "gemini-2.0-flash", contents: text })).totalTokens,
    ).toBe(11);
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

test.describe("version segments and paths outside the API", () => {
  const modes: { name: string; server: ServerInfo; key: string }[] = [
    { name: "local engine", server: localServer, key: DEVELOPMENT_KEY },
    { name: "gateway", server: gatewayServer, key: GATEWAY_KEYS.alice },
  ];

  for (const mode of modes) {
    test(`v1beta, v1 and v1alpha and their upload forms are all served (${mode.name})`, async () => {
      for (const version of ["v1beta", "v1", "v1alpha"]) {
        const model = await api(`/${version}/models/gemini-2.5-flash`, {
          server: mode.server,
          key: mode.key,
        });
        expect(model.status, version).toBe(200);
        expect((model.body as { name: string }).name).toBe("models/gemini-2.5-flash");
        // The upload path exists: a start without its protocol header is the service's 400.
        const upload = await api(`/upload/${version}/files`, {
          method: "POST",
          server: mode.server,
          key: mode.key,
          body: {},
        });
        expect(upload.status, version).toBe(400);
        expect((upload.body as ErrorBody).error.status).toBe("INVALID_ARGUMENT");
      }
    });

    test(`API-looking paths that are no operation answer JSON 404 or 405, never HTML (${mode.name})`, async () => {
      const notFound: [string, string][] = [
        ["GET", "/v2/models"],
        ["POST", "/v1beta3/models/gemini-2.5-flash:generateContent"],
        ["GET", "/v1beta"],
        ["GET", "/v9"],
        ["GET", "/v1alpha/nothing/here"],
        ["POST", "/upload/v9/files"],
        ["GET", "/upload/anything"],
        ["PATCH", "/upload"],
      ];
      for (const [method, path] of notFound) {
        const response = await api(path, { method, server: mode.server, key: mode.key });
        expect(response.headers.get("content-type"), path).toBe("application/json; charset=UTF-8");
        expect(response.status, `${method} ${path}`).toBe(404);
        expect((response.body as ErrorBody).error).toMatchObject({
          code: 404,
          status: "NOT_FOUND",
        });
      }
      const wrongMethod: [string, string][] = [
        ["DELETE", "/v1alpha/models"],
        ["GET", "/upload/v1alpha/files"],
      ];
      for (const [method, path] of wrongMethod) {
        const response = await api(path, { method, server: mode.server, key: mode.key });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect((response.body as ErrorBody).error.code).toBe(405);
      }
    });
  }

  test("studio pages and /api paths keep Next's own answers", async () => {
    for (const path of ["/chat", "/files", "/caches"]) {
      const response = await fetch(`${localServer.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type"), path).toContain("text/html");
    }
    const unknownPage = await fetch(`${localServer.baseUrl}/no-such-page/here`);
    expect(unknownPage.status).toBe(404);
    expect(unknownPage.headers.get("content-type")).toContain("text/html");
    const session = await api("/api/session");
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ authenticated: expect.any(Boolean) });
  });

  test("the official SDK with apiVersion v1alpha works unchanged", async () => {
    const ai = new GoogleGenAI({
      apiKey: DEVELOPMENT_KEY,
      apiVersion: "v1alpha",
      httpOptions: { baseUrl: localServer.baseUrl },
    });
    const { totalTokens } = await ai.models.countTokens({
      model: "gemini-2.5-flash",
      contents: "The quick brown fox jumps over the lazy dog.",
    });
    expect(totalTokens).toBe(11);
  });
});
