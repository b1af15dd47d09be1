/**
 * People (a studio started with STUDIO_ADMIN_EMAIL): an admin invites someone in the browser,
 * the link works once, the new person signs in and makes a key shown once; each person's
 * browser and keys share one workspace and no one else's; a key's model list, rate and budgets
 * answer the service's 403 and 429 with a QuotaFailure; revoking or disabling stops a key at
 * once; wrong passwords are throttled per account and address without locking anyone out;
 * sign-in through a real OpenID Connect provider (oidc-provider, started here) with PKCE,
 * state and nonce. Every page passes axe. Own servers: the shared ones run the other modes.
 * One file, and a long isolation test, on purpose: every test shares the one server and
 * provider started here (each start costs seconds and slow password hashes), and the isolation
 * test walks one set of resources through every intruder and route in one place.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { freePort, startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import { startTestProvider, type TestProvider } from "./support/oidc-provider";
import { expectNoSeriousViolations } from "./pages/answer-metadata";

test.describe.configure({ mode: "serial", timeout: 180_000 });

const ADMIN = { email: "admin@studio.test", password: "admin-password-0123" };
const MODEL = "gemini-2.5-flash";
let server: OwnServer;
let provider: TestProvider;

test.beforeAll(async () => {
  const port = await freePort();
  provider = await startTestProvider(`http://127.0.0.1:${port}/api/session/oidc/callback`);
  server = await startOwnServer({
    port,
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-people-")),
    env: {
      STUDIO_ADMIN_EMAIL: ADMIN.email,
      STUDIO_ADMIN_PASSWORD: ADMIN.password,
      STUDIO_OIDC_ISSUER: provider.issuer,
      STUDIO_OIDC_CLIENT_ID: provider.clientId,
      STUDIO_OIDC_CLIENT_SECRET: provider.clientSecret,
      STUDIO_OIDC_NAME: "TestIdP",
      STUDIO_OIDC_ALLOWED_DOMAINS: "allowed.test",
      STUDIO_TRUSTED_PROXIES: "127.0.0.1/32, ::1",
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
    },
  });
});

test.afterAll(async () => {
  if (server?.alive()) await server.stop("SIGTERM");
  await provider?.close();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: { error?: { status: string; message: string; details?: unknown[] } } & Record<
    string,
    unknown
  >;
  headers: Headers;
}

/** One call with a session cookie (same-origin, as the pages send) or a key. */
async function call(
  route: string,
  options: { method?: string; cookie?: string; key?: string; body?: unknown; from?: string } = {},
): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}${route}`, {
    method: options.method ?? "GET",
    headers: {
      origin: server.baseUrl,
      "sec-fetch-site": "same-origin",
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.key ? { "x-goog-api-key": options.key } : {}),
      ...(options.from ? { "x-forwarded-for": options.from } : {}),
      ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {}, headers: response.headers };
}

async function signIn(email: string, password: string, from?: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/session`, {
    method: "POST",
    headers: {
      origin: server.baseUrl,
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
      ...(from ? { "x-forwarded-for": from } : {}),
    },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

/** Invites `email` as the admin and accepts the invitation: the new person's session cookie. */
async function newPerson(adminCookie: string, email: string, password: string): Promise<string> {
  const invited = await call("/api/admin/invitations", {
    method: "POST",
    cookie: adminCookie,
    body: { email },
  });
  expect(invited.status).toBe(200);
  const token = new URL(invited.body.url as string).hash.slice(1);
  const accepted = await fetch(`${server.baseUrl}/api/invitations/accept`, {
    method: "POST",
    headers: {
      origin: server.baseUrl,
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
    },
    body: JSON.stringify({ token, password }),
  });
  expect(accepted.status).toBe(200);
  return accepted.headers.get("set-cookie")!.split(";")[0]!;
}

async function newKey(cookie: string, name: string, limits?: unknown): Promise<string> {
  const made = await call("/api/keys", { method: "POST", cookie, body: { name, limits } });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body.secret as string;
}

async function signInInBrowser(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${server.baseUrl}/`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("link", { name: "Account" })).toBeVisible();
}

test("an admin invites someone; the link works once; they sign in and make a key shown once", async ({
  browser,
}) => {
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto(`${server.baseUrl}/`);
  await expect(admin.getByRole("link", { name: "Sign in with TestIdP" })).toBeVisible();
  await expectNoSeriousViolations(admin, "form[aria-label='Sign in']");
  await admin.getByLabel("Email").fill(ADMIN.email);
  await admin.getByLabel("Password").fill("not the password");
  await admin.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(admin.getByText("The email or password is not correct.")).toBeVisible();
  await signInInBrowser(admin, ADMIN.email, ADMIN.password);
  await admin.getByRole("link", { name: "Admin" }).click();
  const inviteForm = admin.getByRole("form", { name: "Invite someone" });
  await inviteForm.getByLabel("Email").fill("bea@studio.test");
  await inviteForm.getByRole("button", { name: "Invite" }).click();
  const link = (await admin.getByTestId("issued-link").textContent())!;
  expect(link).toMatch(/\/invitation#[A-Za-z0-9_-]{40,}$/);
  await expectNoSeriousViolations(admin, "main");

  const beaContext = await browser.newContext();
  const bea = await beaContext.newPage();
  await bea.goto(link);
  await expect(bea.getByText("bea@studio.test")).toBeVisible();
  await expectNoSeriousViolations(bea, "form");
  await bea.getByLabel("Your name").fill("Bea");
  await bea.getByLabel("Password (at least 12 characters)").fill("bea-password-0123");
  await bea.getByLabel("Password again").fill("bea-password-0123");
  await bea.getByRole("button", { name: "Create my account" }).click();
  await expect(bea.getByRole("link", { name: "Account" })).toBeVisible();
  await expect(bea.getByRole("link", { name: "Admin" })).toHaveCount(0);

  // The link was used: a second use (or a look) finds nothing.
  const token = new URL(link).hash.slice(1);
  for (const [route, body] of [
    ["/api/invitations/lookup", { token }],
    ["/api/invitations/accept", { token, password: "another-password-0" }],
  ] as const) {
    const again = await call(route, { method: "POST", body });
    expect(again.status, route).toBe(404);
  }

  await bea.getByRole("link", { name: "Account" }).click();
  await bea.getByLabel("Name").fill("laptop");
  await bea.getByRole("button", { name: "Create key" }).click();
  const secret = (await bea.getByTestId("new-key-secret").textContent())!;
  expect(secret).toMatch(/^gsk_[A-Za-z0-9_-]{43}$/);
  await expectNoSeriousViolations(bea, "main");
  await bea.reload();
  const item = bea.getByRole("listitem", { name: "Key laptop" });
  await expect(item).toContainText(secret.slice(0, 10));
  await expect(bea.getByText(secret)).toHaveCount(0);
  expect(await bea.content()).not.toContain(secret);
  // The key works at once, in Bea's workspace.
  expect((await call("/v1beta/models", { key: secret })).status).toBe(200);
  await adminContext.close();
  await beaContext.close();
});

test("a person's browser and keys share one workspace; no one else's session or key reaches it", async () => {
  const adminCookie = await signIn(ADMIN.email, ADMIN.password);
  const cleo = await newPerson(adminCookie, "cleo@studio.test", "cleo-password-0123");
  const dan = await newPerson(adminCookie, "dan@studio.test", "dan-password-01234");
  const cleoKey = await newKey(cleo, "script");
  const danKey = await newKey(dan, "script");

  // Cleo's browser uploads a file; her key uses it in a prompt (as a Get code snippet would).
  const bytes = "Cleo's notes: the harbour opens at dawn. ".repeat(20);
  const start = await fetch(`${server.baseUrl}/upload/v1beta/files`, {
    method: "POST",
    headers: {
      cookie: cleo,
      origin: server.baseUrl,
      "sec-fetch-site": "same-origin",
      "X-Goog-Upload-Protocol": "resumable",
      "X-Goog-Upload-Command": "start",
      "X-Goog-Upload-Header-Content-Length": String(bytes.length),
      "X-Goog-Upload-Header-Content-Type": "text/plain",
      "content-type": "application/json",
    },
    body: "{}",
  });
  const uploadUrl = start.headers.get("x-goog-upload-url")!;
  const file = (
    (await (
      await fetch(uploadUrl, {
        method: "POST",
        headers: { "X-Goog-Upload-Command": "upload, finalize", "X-Goog-Upload-Offset": "0" },
        body: bytes,
      })
    ).json()) as { file: { name: string; uri: string } }
  ).file;
  const prompt = {
    contents: [
      { parts: [{ fileData: { fileUri: file.uri, mimeType: "text/plain" } }, { text: "Sum up." }] },
    ],
    generationConfig: { maxOutputTokens: 8 },
  };
  expect(
    (
      await call(`/v1beta/models/${MODEL}:generateContent`, {
        method: "POST",
        key: cleoKey,
        body: prompt,
      })
    ).status,
  ).toBe(200);
  expect((await call(`/v1beta/${file.name}`, { key: cleoKey })).status).toBe(200);
  // Dan, by session or key, does not reach it; nor does the admin's own workspace.
  for (const intruder of [{ key: danKey }, { cookie: dan }, { cookie: adminCookie }]) {
    expect((await call(`/v1beta/${file.name}`, intruder)).status).toBe(403);
    const used = await call(`/v1beta/models/${MODEL}:generateContent`, {
      method: "POST",
      body: prompt,
      ...intruder,
    });
    expect(used.status).toBe(403);
    expect(
      ((await call("/v1beta/files", intruder)).body.files as unknown[] | undefined) ?? [],
    ).toHaveLength(0);
  }
  // Keys: each sees only its own workspace's, by any route or spelling.
  const cleoKeys = (await call("/api/keys", { cookie: cleo })).body.keys as { id: string }[];
  const danKeys = (await call("/api/keys", { cookie: dan })).body.keys as { id: string }[];
  expect(cleoKeys).toHaveLength(1);
  const cleoKeyId = cleoKeys[0]!.id;
  expect(danKeys.map((key) => key.id)).not.toContain(cleoKeyId);
  for (const spelling of [
    cleoKeyId,
    encodeURIComponent(cleoKeyId),
    `${cleoKeyId}%00`,
    `../keys/${cleoKeyId}`,
  ]) {
    for (const [method, body] of [
      ["PATCH", { name: "taken" }],
      ["DELETE", undefined],
    ] as const) {
      const answer = await call(`/api/keys/${spelling}`, { method, cookie: dan, body });
      expect([400, 404], `${method} ${spelling}`).toContain(answer.status);
    }
  }
  // A key cannot manage keys, nor reach the admin's routes.
  expect((await call("/api/keys", { key: cleoKey })).status).toBe(403);
  expect(
    (await call("/api/keys", { method: "POST", key: cleoKey, body: { name: "more" } })).status,
  ).toBe(403);
  for (const route of ["/api/admin/people", "/api/admin/invitations", "/api/admin/workspaces"]) {
    expect((await call(route, { cookie: dan })).status).toBe(403);
    expect((await call(route, { key: danKey })).status).toBe(403);
  }
  expect(
    (
      await call("/api/session/workspace", {
        method: "PUT",
        cookie: dan,
        body: { ownerId: "studio" },
      })
    ).status,
  ).toBe(403);
  expect((await call("/api/keys", { cookie: cleo })).body.keys).toHaveLength(1);

  // The admin may act on Cleo's workspace (switching); then sees her file and keys.
  const cleoId = ((await call("/api/session", { cookie: cleo })).body.person as { id: string }).id;
  expect(
    (
      await call("/api/session/workspace", {
        method: "PUT",
        cookie: adminCookie,
        body: { ownerId: `person:${cleoId}` },
      })
    ).status,
  ).toBe(200);
  expect((await call(`/v1beta/${file.name}`, { cookie: adminCookie })).status).toBe(200);
  expect(((await call("/api/keys", { cookie: adminCookie })).body.keys as unknown[]).length).toBe(
    1,
  );
  // ... but makes no keys there.
  expect(
    (await call("/api/keys", { method: "POST", cookie: adminCookie, body: { name: "x" } })).status,
  ).toBe(403);
  await call("/api/session/workspace", {
    method: "PUT",
    cookie: adminCookie,
    body: { ownerId: null },
  });

  // Usage and request logs: Cleo's answer is in her usage (written off the request's path, so
  // polled); Dan reads none of it, by session or key, filter or spelling.
  const requestsIn = async (route: string, who: Parameters<typeof call>[1]) => {
    const answer = await call(route, who);
    return (answer.body.total as { requests: number } | undefined)?.requests ?? answer.status;
  };
  await expect.poll(() => requestsIn("/api/usage", { cookie: cleo })).toBe(1);
  expect(await requestsIn("/api/usage", { cookie: dan })).toBe(0);
  expect(await requestsIn(`/api/usage?keyId=${cleoKeyId}`, { cookie: dan })).toBe(0);
  for (const route of [
    `/api/usage?personId=${cleoId}`,
    `/api/usage?personId=${encodeURIComponent(` ${cleoId}`)}`,
    `/api/usage/export?personId=${cleoId}`,
    `/api/logs?personId=${cleoId}`,
    `/api/logs/export?personId=${cleoId}`,
  ])
    expect([400, 403], route).toContain((await call(route, { cookie: dan })).status);
  for (const route of ["/api/usage", "/api/usage/export", "/api/logs", "/api/logs/export"])
    expect((await call(route, { key: danKey })).status, route).toBe(403);

  // Disabling Dan stops his session and his key at once.
  const danId = ((await call("/api/session", { cookie: dan })).body.person as { id: string }).id;
  expect(
    (
      await call(`/api/admin/people/${danId}`, {
        method: "PATCH",
        cookie: adminCookie,
        body: { disabled: true },
      })
    ).status,
  ).toBe(200);
  expect((await call("/v1beta/models", { key: danKey })).status).toBe(400);
  expect((await call("/v1beta/models", { cookie: dan })).status).toBe(403);
});

test("a key's models, rate and budgets answer the service's 403 and 429; revoking stops it at once", async () => {
  const adminCookie = await signIn(ADMIN.email, ADMIN.password);
  const eve = await newPerson(adminCookie, "eve@studio.test", "eve-password-01234");
  const eveId = ((await call("/api/session", { cookie: eve })).body.person as { id: string }).id;
  // The admin allows Eve's keys at most 1000 tokens a day; a key asking for more is refused.
  await call(`/api/admin/people/${eveId}`, {
    method: "PATCH",
    cookie: adminCookie,
    body: { allowance: { tokensPerDay: 1000 } },
  });
  const beyond = await call("/api/keys", {
    method: "POST",
    cookie: eve,
    body: { name: "greedy", limits: { tokensPerDay: 5000 } },
  });
  expect(beyond.status).toBe(400);
  expect(beyond.body.error!.message).toContain("tokensPerDay");

  const key = await newKey(eve, "flash only", { models: [MODEL], tokensPerDay: 60 });
  const generate = (model: string) =>
    call(`/v1beta/models/${model}:generateContent`, {
      method: "POST",
      key,
      body: {
        contents: [{ parts: [{ text: "Tell me about rivers." }] }],
        generationConfig: { maxOutputTokens: 40 },
      },
    });
  const denied = await generate("gemini-2.5-pro");
  expect(denied.status).toBe(403);
  expect(denied.body.error!.status).toBe("PERMISSION_DENIED");
  // Spend reaches the budget after an answer or two; then the QuotaFailure names it.
  let refused: Answer | null = null;
  for (let index = 0; index < 10 && refused === null; index++) {
    const answer = await generate(MODEL);
    if (answer.status === 429) refused = answer;
    else expect(answer.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(refused?.body.error?.status).toBe("RESOURCE_EXHAUSTED");
  expect(JSON.stringify(refused?.body.error?.details)).toContain(
    '"quotaId":"TokensPerDayPerApiKey"',
  );
  expect(JSON.stringify(refused?.body.error?.details)).toContain('"quotaValue":"60"');
  const listed = (await call("/api/keys", { cookie: eve })).body.keys as {
    spend: { dayTokens: number };
  }[];
  expect(listed[0]!.spend.dayTokens).toBeGreaterThanOrEqual(60);

  // A rate of 2 a minute: the third request at once is refused.
  const slow = await newKey(eve, "slow", { requestsPerMinute: 2 });
  const statuses = [];
  for (let index = 0; index < 3; index++)
    statuses.push((await call("/v1beta/models", { key: slow })).status);
  expect(statuses).toEqual([200, 429, 429]);

  const keys = (await call("/api/keys", { cookie: eve })).body.keys as {
    id: string;
    name: string;
  }[];
  const slowId = keys.find((item) => item.name === "slow")!.id;
  const fresh = await newKey(eve, "to revoke");
  expect((await call("/v1beta/models", { key: fresh })).status).toBe(200);
  const freshId = (
    (await call("/api/keys", { cookie: eve })).body.keys as { id: string; name: string }[]
  ).find((item) => item.name === "to revoke")!.id;
  expect((await call(`/api/keys/${freshId}`, { method: "DELETE", cookie: eve })).status).toBe(200);
  const after = await call("/v1beta/models", { key: fresh });
  expect(after.status).toBe(400);
  expect(after.body.error!.message).toBe("API key not valid. Please pass a valid API key.");
  expect(slowId).not.toBe(freshId);
});

test("wrong passwords are throttled per account and address; others' guesses never block the right one", async () => {
  // About 125 wrong passwords, each checked with the memory-hard hash (near a second each on
  // this 2-core machine, more while other suites run): a generous "did not hang" bound.
  test.setTimeout(480_000);
  // One address guessing one account: 10 wrong answers (more only as the minute refills), then
  // 429, even for the right password there.
  const started = Date.now();
  const statuses: number[] = [];
  while (statuses.at(-1) !== 429 && statuses.length < 40) {
    const answer = await call("/api/session", {
      method: "POST",
      from: "203.0.113.10",
      body: { email: ADMIN.email, password: `guess-${statuses.length}-guess` },
    });
    statuses.push(answer.status);
  }
  const wrong = statuses.filter((status) => status === 403).length;
  expect(statuses.slice(0, 10).every((status) => status === 403)).toBe(true);
  expect(wrong).toBeLessThanOrEqual(10 + Math.ceil(((Date.now() - started) / 60_000) * 10));
  expect(statuses.at(-1)).toBe(429);
  expect(
    (await call("/api/session", { method: "POST", from: "203.0.113.10", body: ADMIN })).status,
  ).toBe(429);
  // Guesses from many more addresses put the account under attack ...
  for (let address = 20; address < 31; address++) {
    for (let index = 0; index < 10; index++)
      await call("/api/session", {
        method: "POST",
        from: `203.0.113.${address}`,
        body: { email: ADMIN.email, password: `guess-${address}-${index}` },
      });
  }
  // ... yet the right password from any other address signs in.
  expect(
    (await call("/api/session", { method: "POST", from: "198.51.100.77", body: ADMIN })).status,
  ).toBe(200);
  // Nothing of a password reaches the server's output.
  expect(server.log()).not.toContain(ADMIN.password);
  expect(server.log()).not.toContain("guess-20-3");
});

test("sign-in through the OpenID Connect provider: invited, allowed domain, and refused", async ({
  browser,
}) => {
  const adminCookie = await signIn(ADMIN.email, ADMIN.password, "198.51.100.1");
  await call("/api/admin/invitations", {
    method: "POST",
    cookie: adminCookie,
    body: { email: "finn@elsewhere.test" },
  });
  const viaProvider = async (login: string): Promise<Page> => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole("link", { name: "Sign in with TestIdP" }).click();
    await page.locator("input[name=login]").fill(login);
    await page.locator("input[name=password]").fill("any");
    await page.locator("button[type=submit]").click();
    const consent = page.locator("button[type=submit]", { hasText: /continue/i });
    if (await consent.isVisible().catch(() => false)) await consent.click();
    await page.waitForURL(`${server.baseUrl}/**`);
    return page;
  };
  const finn = await viaProvider("finn@elsewhere.test");
  await expect(finn.getByRole("link", { name: "Account" })).toBeVisible();
  const gwen = await viaProvider("gwen@allowed.test");
  await expect(gwen.getByRole("link", { name: "Account" })).toBeVisible();
  const hal = await viaProvider("hal@elsewhere.test");
  await expect(
    hal.getByText("hal@elsewhere.test has no account here", { exact: false }),
  ).toBeVisible();
  // The invitation was used by the provider sign-in; Finn and Gwen are people now.
  const people = (await call("/api/admin/people", { cookie: adminCookie })).body.people as {
    email: string;
    linkedProvider: boolean;
  }[];
  expect(
    people
      .filter((person) => person.linkedProvider)
      .map((person) => person.email)
      .sort(),
  ).toEqual(["finn@elsewhere.test", "gwen@allowed.test"]);
  // A callback this browser did not start (no flow cookie, forged state) is refused.
  const forged = await fetch(`${server.baseUrl}/api/session/oidc/callback?code=abc&state=forged`, {
    redirect: "manual",
  });
  expect(forged.status).toBe(303);
  expect(forged.headers.get("location")).toContain("sign_in_error=");
  expect(forged.headers.get("set-cookie") ?? "").not.toContain("genstudio_session=");
});
