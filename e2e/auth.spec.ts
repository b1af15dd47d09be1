import { expect, test } from "@playwright/test";
import { api, sdkClient } from "./support/api";
import { ACCESS_CODE, STUDIO_KEYS, keyedServer } from "./support/servers";
import { startUntilExit } from "./support/start-until-exit";

interface ErrorBody {
  error: {
    code: number;
    message: string;
    status: string;
    details?: { "@type": string; reason?: string }[];
  };
}

test.describe("studio keys", () => {
  test("a missing key is 403 PERMISSION_DENIED", async () => {
    const response = await api("/v1beta/models", { key: null, server: keyedServer });
    expect(response.status).toBe(403);
    expect((response.body as ErrorBody).error.status).toBe("PERMISSION_DENIED");
    expect((response.body as ErrorBody).error.message).toContain("unregistered callers");
  });

  test("a wrong key is 400 INVALID_ARGUMENT with reason API_KEY_INVALID", async () => {
    const response = await api("/v1beta/models", { key: "not-a-real-key", server: keyedServer });
    expect(response.status).toBe(400);
    const body = response.body as ErrorBody;
    expect(body.error.message).toBe("API key not valid. Please pass a valid API key.");
    expect(body.error.details?.[0]).toMatchObject({
      "@type": "type.googleapis.com/google.rpc.ErrorInfo",
      reason: "API_KEY_INVALID",
    });
  });

  test("keys work as ?key= and as x-goog-api-key, and the development key is not accepted once keys are configured", async () => {
    expect(
      (await api(`/v1beta/models?key=${STUDIO_KEYS.alice}`, { key: null, server: keyedServer }))
        .status,
    ).toBe(200);
    expect(
      (await api("/v1beta/models", { key: STUDIO_KEYS.bob, server: keyedServer })).status,
    ).toBe(200);
    expect(
      (await api("/v1beta/models", { key: "genstudio-dev-key", server: keyedServer })).status,
    ).toBe(400);
    const model = await sdkClient(keyedServer, STUDIO_KEYS.alice).models.get({
      model: "gemini-2.0-flash",
    });
    expect(model.name).toBe("models/gemini-2.0-flash");
  });
});

test.describe("browser sessions", () => {
  test("the access code is asked for, a wrong one refused, the right one lets the pages in", async ({
    page,
  }) => {
    await page.goto(keyedServer.baseUrl);
    const form = page.getByRole("form", { name: "Sign in" });
    await expect(form).toBeVisible();
    await form.getByLabel("Access code").fill("wrong code");
    await form.getByRole("button", { name: "Sign in" }).click();
    await expect(form.getByRole("alert")).toContainText("not correct");
    await form.getByLabel("Access code").fill(ACCESS_CODE);
    await form.getByRole("button", { name: "Sign in" }).click();
    await expect(
      page.getByRole("heading", { name: "Genstudio", level: 1, exact: true }),
    ).toBeVisible();
    const status = await page.evaluate(async () => (await fetch("/v1beta/models")).status);
    expect(status).toBe(200);
  });

  test("the sign-in form comes rendered by the server, and a provider's error shows once", async ({
    page,
  }) => {
    // A render error on the server would leave the page to the browser: no form in the HTML.
    const html = await (await fetch(keyedServer.baseUrl)).text();
    expect(html).toContain("Sign in to Genstudio");
    expect(html).not.toContain("data-dgst");

    await page.goto(`${keyedServer.baseUrl}/?sign_in_error=${encodeURIComponent("Not allowed.")}`);
    const form = page.getByRole("form", { name: "Sign in" });
    await expect(form.getByRole("alert")).toContainText("Not allowed.");
    await expect.poll(() => new URL(page.url()).searchParams.has("sign_in_error")).toBe(false);
    await page.reload();
    await expect(form).toBeVisible();
    await expect(form.getByRole("alert")).toHaveCount(0);
  });

  test("session endpoints refuse cross-site requests and non-JSON bodies", async () => {
    const crossSite = await fetch(`${keyedServer.baseUrl}/api/session`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "sec-fetch-site": "cross-site",
        origin: "https://evil.example",
      },
      body: JSON.stringify({ accessCode: ACCESS_CODE }),
    });
    expect(crossSite.status).toBe(403);
    const formPost = await fetch(`${keyedServer.baseUrl}/api/session`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `accessCode=${ACCESS_CODE}`,
    });
    expect(formPost.status).toBe(415);
  });
});

test("the server refuses to start on a public interface with no credentials", async () => {
  const { code, output } = await startUntilExit({
    HOSTNAME: "0.0.0.0",
    DATA_DIR: `${keyedServer.dataDir}-refuse`,
  });
  expect(code).toBe(1);
  expect(output).toContain("Refusing to start");
});
