/**
 * The gateway's secrets stay on the server: not in the client bundle, not in any page or API
 * response, not in the logs. Browser-session endpoints take only same-origin JSON; paths
 * outside the API surface are refused.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  GATEWAY_ACCESS_CODE,
  GATEWAY_KEYS,
  faultGatewayServer,
  gatewayServer as gateway,
  serverLogFile,
} from "./support/servers";
import { SECRETS, recordResponses, responsesLeakingSecrets } from "./support/gateway";

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

test.beforeAll(() => recordResponses());

/**
 * Names only the server's configuration reads. (Not `GEMINI_API_KEY`: the studio's Get code
 * shows it on purpose, as the placeholder a snippet reads its key from.)
 */
const SERVER_CONFIGURATION_NAMES = [
  "UPSTREAM_FIRST_BYTE_TIMEOUT_MS",
  "STUDIO_SESSION_TTL_HOURS",
  "STUDIO_FILE_QUOTA_BYTES",
];

test("the client bundle contains no upstream key, nor the server's configuration code", () => {
  const folder = path.resolve(".next/static");
  expect(fs.existsSync(folder), "run `next build` first").toBe(true);
  const files = filesUnder(folder);
  expect(files.length).toBeGreaterThan(5);
  const leaking = files.filter((file) => {
    const bytes = fs.readFileSync(file);
    return [...SECRETS, ...SERVER_CONFIGURATION_NAMES].some((text) => bytes.includes(text));
  });
  expect(leaking).toEqual([]);
});

test("pages served in upstream mode, and everything they load, carry no key", async ({ page }) => {
  const bodies: Promise<string>[] = [];
  page.on("response", (response) => {
    const headers = JSON.stringify(response.headers());
    // A body that is still streaming when the test ends is scanned as far as its headers.
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve(headers), 5_000));
    bodies.push(
      Promise.race([
        response
          .body()
          .then((body) => `${headers}\n${body.toString("latin1")}`)
          .catch(() => headers),
        timeout,
      ]),
    );
  });
  await page.goto(gateway.baseUrl);
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Access code").fill(GATEWAY_ACCESS_CODE);
  const signedIn = page.waitForResponse(
    (response) =>
      response.url() === `${gateway.baseUrl}/api/session` && response.request().method() === "POST",
  );
  await form.getByRole("button", { name: "Sign in" }).click();
  expect((await signedIn).status()).toBe(200);
  await expect(
    page.getByRole("heading", { name: "Genstudio", level: 1, exact: true }),
  ).toBeVisible();
  const models = await page.evaluate(async () => {
    const response = await fetch("/v1beta/models");
    return { status: response.status, text: await response.text() };
  });
  expect(models.status, models.text).toBe(200);
  bodies.push(Promise.resolve(models.text));
  // The studio keeps polling; give the first round of requests time to finish.
  await page.waitForTimeout(2_000);
  const texts = await Promise.all(bodies);
  expect(texts.length).toBeGreaterThan(3);
  for (const text of texts) {
    for (const secret of SECRETS) expect(text.includes(secret)).toBe(false);
  }
});

test("a path outside the API surface is refused with the service's error body", async () => {
  for (const [method, route] of [
    ["GET", "/v1beta/tunedModels"],
    ["POST", "/v1beta/models/gemini-2.5-flash:generateAnswer"],
    ["GET", "/v1beta/operations/abc"],
    ["POST", "/upload/v1beta/tunedModels"],
  ] as const) {
    const response = await fetch(`${gateway.baseUrl}${route}`, {
      method,
      headers: { "x-goog-api-key": GATEWAY_KEYS.alice, "content-type": "application/json" },
      body: method === "POST" ? "{}" : undefined,
    });
    expect(response.status, route).toBe(404);
    expect(((await response.json()) as { error: { status: string } }).error.status).toBe(
      "NOT_FOUND",
    );
  }
});

test.describe("browser-session endpoints", () => {
  test("a cross-site form post from a real browser page is refused and opens no session", async ({
    page,
    context,
  }) => {
    // The text/plain form trick that smuggles a JSON-looking body past CORS preflight.
    await page.setContent(`
      <form id="attack" method="post" action="${gateway.baseUrl}/api/session" enctype="text/plain">
        <input name='{"accessCode":"${GATEWAY_ACCESS_CODE}","padding":"' value='"}'>
      </form>`);
    const answer = page.waitForResponse(
      (response) => response.url() === `${gateway.baseUrl}/api/session`,
    );
    await page.evaluate(() => (document.getElementById("attack") as HTMLFormElement).submit());
    const response = await answer;
    expect([403, 415]).toContain(response.status());
    expect(response.headers()["set-cookie"]).toBeUndefined();
    expect(
      (await context.cookies(gateway.baseUrl)).filter(
        (cookie) => cookie.name === "genstudio_session",
      ),
    ).toEqual([]);
  });

  test("only same-origin JSON opens a session, and a session cookie is refused on cross-site API calls", async () => {
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${gateway.baseUrl}/api/session`, { method: "POST", headers, body });
    const json = JSON.stringify({ accessCode: GATEWAY_ACCESS_CODE });
    expect(
      (
        await post(
          { "content-type": "application/x-www-form-urlencoded" },
          `accessCode=${GATEWAY_ACCESS_CODE}`,
        )
      ).status,
    ).toBe(415);
    expect((await post({ "content-type": "text/plain" }, json)).status).toBe(415);
    expect(
      (await post({ "content-type": "application/json", origin: "https://evil.example" }, json))
        .status,
    ).toBe(403);
    expect(
      (await post({ "content-type": "application/json", "sec-fetch-site": "cross-site" }, json))
        .status,
    ).toBe(403);
    const accepted = await post(
      {
        "content-type": "application/json",
        origin: gateway.baseUrl,
        "sec-fetch-site": "same-origin",
      },
      json,
    );
    expect(accepted.status).toBe(200);
    const cookie = accepted.headers.get("set-cookie")!.split(";")[0]!;
    expect(cookie).toMatch(/^genstudio_session=/);

    const count = (headers: Record<string, string>) =>
      fetch(`${gateway.baseUrl}/v1beta/models/gemini-2.5-flash:countTokens`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", ...headers },
        body: JSON.stringify({ contents: [{ parts: [{ text: "hello" }] }] }),
      });
    expect(
      (await count({ "sec-fetch-site": "cross-site", origin: "https://evil.example" })).status,
    ).toBe(403);
    expect((await count({ "sec-fetch-site": "same-origin", origin: gateway.baseUrl })).status).toBe(
      200,
    );
  });
});

test("no response of this spec carried an upstream key, and the gateways' logs hold none", async () => {
  expect(await responsesLeakingSecrets()).toEqual([]);
  for (const server of [gateway, faultGatewayServer]) {
    const log = fs.readFileSync(serverLogFile(server), "utf8");
    expect(log).toContain("mode=upstream");
    for (const secret of SECRETS)
      expect(log.includes(secret), `${serverLogFile(server)} holds a key`).toBe(false);
  }
});
