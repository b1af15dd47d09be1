/**
 * Usage, request logs and the audit log on a people-mode studio (own server): each answer's
 * tokens and cost land in the ledger per person, key and model (a member reads their own, an
 * admin everyone's, with filters, as a report and as CSV); a key that asked for logging gets
 * its requests logged (a stream included, passed on unheld), browsed and filtered, opened in the
 * inspector, exported as JSONL lines of the recorded-exchanges format with inline media left
 * out and no secret in them; no one reads another's usage or log by any route or spelling; bad
 * filters are 400s naming the field; admin actions and key changes are in the audit log. And
 * the gateway records usage too (the shared gateway, through its access code). One file on
 * purpose: every test shares the one server, its people and keys (each person costs a slow
 * password hash), and the isolation checks walk the resources the earlier tests made.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { freePort, startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import { expectNoSeriousViolations } from "./pages/answer-metadata";
import { GATEWAY_ACCESS_CODE, GATEWAY_KEYS, gatewayServer } from "./support/servers";

test.describe.configure({ mode: "serial", timeout: 180_000 });

const ADMIN = { email: "admin@usage.test", password: "admin-password-0123" };
const MODEL = "gemini-2.5-flash";
/** A 1×1 PNG, sent inline. */
const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

let server: OwnServer;

interface Answer {
  status: number;
  body: Record<string, unknown> & {
    error?: { status: string; message: string; details?: unknown[] };
  };
  text: string;
}

async function call(
  base: string,
  route: string,
  options: { method?: string; cookie?: string; key?: string; body?: unknown } = {},
): Promise<Answer> {
  const response = await fetch(`${base}${route}`, {
    method: options.method ?? "GET",
    headers: {
      origin: base,
      "sec-fetch-site": "same-origin",
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.key ? { "x-goog-api-key": options.key } : {}),
      ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body = {};
  try {
    body = JSON.parse(text) as object;
  } catch {
    // CSV, JSONL
  }
  return { status: response.status, body, text };
}

const studio = (route: string, options?: Parameters<typeof call>[2]) =>
  call(server.baseUrl, route, options);

async function signIn(email: string, password: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/session`, {
    method: "POST",
    headers: {
      origin: server.baseUrl,
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
    },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status).toBe(200);
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

async function newPerson(
  adminCookie: string,
  email: string,
): Promise<{ cookie: string; id: string }> {
  const invited = await studio("/api/admin/invitations", {
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
    body: JSON.stringify({ token, password: `${email}-password` }),
  });
  expect(accepted.status).toBe(200);
  const cookie = accepted.headers.get("set-cookie")!.split(";")[0]!;
  const session = await studio("/api/session", { cookie });
  return { cookie, id: (session.body.person as { id: string }).id };
}

async function newKey(cookie: string, name: string): Promise<{ id: string; secret: string }> {
  const made = await studio("/api/keys", { method: "POST", cookie, body: { name } });
  expect(made.status).toBe(200);
  return { id: (made.body.key as { id: string }).id, secret: made.body.secret as string };
}

function generateBody(text: string, withPicture = false) {
  return {
    contents: [
      {
        parts: [
          { text },
          ...(withPicture ? [{ inlineData: { mimeType: "image/png", data: PIXEL } }] : []),
        ],
      },
    ],
  };
}

let admin: string;
let ann: { cookie: string; id: string };
let ben: { cookie: string; id: string };
let annKey: { id: string; secret: string };
let benKey: { id: string; secret: string };

test.beforeAll(async () => {
  server = await startOwnServer({
    port: await freePort(),
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-usage-")),
    env: {
      STUDIO_ADMIN_EMAIL: ADMIN.email,
      STUDIO_ADMIN_PASSWORD: ADMIN.password,
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
    },
  });
  admin = await signIn(ADMIN.email, ADMIN.password);
  ann = await newPerson(admin, "ann@usage.test");
  ben = await newPerson(admin, "ben@usage.test");
  annKey = await newKey(ann.cookie, "ann-script");
  benKey = await newKey(ben.cookie, "ben-script");
});

test.afterAll(async () => {
  if (server?.alive()) await server.stop("SIGTERM");
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
});

test("each answer's usage is recorded per person, key and model; a member reads only their own", async () => {
  const answered = await studio(`/v1beta/models/${MODEL}:generateContent`, {
    method: "POST",
    key: annKey.secret,
    body: generateBody("Name three rivers."),
  });
  expect(answered.status).toBe(200);
  const usage = answered.body.usageMetadata as Record<string, number>;
  const streamed = await studio(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, {
    method: "POST",
    key: annKey.secret,
    body: generateBody("Name three lakes."),
  });
  expect(streamed.status).toBe(200);
  // countTokens reports no usage: it is not an answer.
  expect(
    (
      await studio(`/v1beta/models/${MODEL}:countTokens`, {
        method: "POST",
        key: annKey.secret,
        body: generateBody("Count me."),
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await studio(`/v1beta/models/${MODEL}:generateContent`, {
        method: "POST",
        key: benKey.secret,
        body: generateBody("Name a mountain."),
      })
    ).status,
  ).toBe(200);

  await expect
    .poll(
      async () =>
        ((await studio("/api/usage", { cookie: ann.cookie })).body.total as { requests: number })
          .requests,
    )
    .toBe(2);
  const own = (await studio("/api/usage", { cookie: ann.cookie })).body as {
    scope: string;
    total: { promptTokens: number; totalTokens: number; cost: number };
    byDay: Array<{ day: string; requests: number }>;
    byModel: Array<{ model: string }>;
    byKey: Array<{ keyId: string; label: string }>;
  };
  expect(own.scope).toBe("own");
  expect(own.byDay).toHaveLength(30);
  expect(own.byDay[29]!.requests).toBe(2);
  expect(own.total.promptTokens).toBeGreaterThanOrEqual(usage.promptTokenCount!);
  expect(own.total.cost).toBeGreaterThan(0);
  expect(own.byModel.map((row) => row.model)).toEqual([MODEL]);
  expect(own.byKey).toEqual([expect.objectContaining({ keyId: annKey.id, label: "ann-script" })]);

  // Ben's report has only Ben's answer (written off the request's path, maybe after Ann's);
  // the admin's has both, and filters by person.
  await expect
    .poll(
      async () =>
        ((await studio("/api/usage", { cookie: ben.cookie })).body.total as { requests: number })
          .requests,
    )
    .toBe(1);
  const everyone = (await studio("/api/usage", { cookie: admin })).body as {
    scope: string;
    total: { requests: number };
    byPerson: Array<{ personId: string; label: string; requests: number }>;
  };
  expect(everyone.scope).toBe("everyone");
  expect(everyone.total.requests).toBe(3);
  const annRow = everyone.byPerson.find((row) => row.personId === ann.id)!;
  expect(annRow.requests).toBe(2);
  expect(annRow.label).toContain("<ann@usage.test>");
  const filtered = (await studio(`/api/usage?personId=${ben.id}`, { cookie: admin })).body as {
    total: { requests: number };
  };
  expect(filtered.total.requests).toBe(1);
  const byKey = (await studio(`/api/usage?keyId=${annKey.id}&model=${MODEL}`, { cookie: admin }))
    .body as { total: { requests: number } };
  expect(byKey.total.requests).toBe(2);

  // CSV: a header and one ledger row per day, person, key and model.
  const csv = await studio("/api/usage/export", { cookie: ann.cookie });
  expect(csv.status).toBe(200);
  const lines = csv.text.trim().split("\r\n");
  expect(lines[0]).toBe(
    "day,workspace,person,key,key_id,model,requests,prompt_tokens,cached_tokens,output_tokens,thought_tokens,total_tokens,cost_usd",
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`,ann-script,${annKey.id},${MODEL},2,`);
});

test("no one reads another's usage by any route or spelling, and bad filters name the field", async () => {
  const refusals: Array<[string, Parameters<typeof studio>[1], number]> = [
    [`/api/usage?personId=${ann.id}`, { cookie: ben.cookie }, 403],
    [`/api/usage/export?personId=${ann.id}`, { cookie: ben.cookie }, 403],
    [
      `/api/usage?personId=${encodeURIComponent(ann.id)}&personId=${ben.id}`,
      { cookie: ben.cookie },
      400,
    ],
    ["/api/usage", { key: annKey.secret }, 403],
    ["/api/usage/export", { key: annKey.secret }, 403],
    ["/api/usage", {}, 403],
    [`/api/logs?personId=${ann.id}`, { cookie: ben.cookie }, 403],
    ["/api/logs", { key: annKey.secret }, 403],
    ["/api/admin/audit", { cookie: ben.cookie }, 403],
    ["/api/admin/audit", { key: benKey.secret }, 403],
  ];
  for (const [route, options, status] of refusals)
    expect((await studio(route, options)).status, route).toBe(status);
  // A member's key filter on another's key finds nothing of theirs.
  const other = (await studio(`/api/usage?keyId=${annKey.id}`, { cookie: ben.cookie })).body as {
    total: { requests: number };
  };
  expect(other.total.requests).toBe(0);

  const bad: Array<[string, string]> = [
    ["/api/usage?from=2025-13-01", "from"],
    ["/api/usage?to=yesterday", "to"],
    ["/api/usage?from=2025-06-10&to=2025-06-01", "from"],
    ["/api/usage?from=2020-01-01&to=2025-01-01", "from"],
    [`/api/usage?model=${"m".repeat(201)}`, "model"],
    ["/api/usage?persons=1", "persons"],
    ["/api/usage/export?from=2025-02-30", "from"],
    ["/api/logs?status=600", "status"],
    ["/api/logs?status=abc", "status"],
    ["/api/logs?limit=0", "limit"],
    ["/api/logs?limit=ten", "limit"],
    ["/api/logs?from=soon", "from"],
    ["/api/logs?before=x", "before"],
    ["/api/logs/export?format=xml", "format"],
    ["/api/admin/audit?limit=100000", "limit"],
  ];
  for (const [route, field] of bad) {
    const answer = await studio(route, { cookie: admin });
    expect(answer.status, route).toBe(400);
    expect(answer.body.error?.status, route).toBe("INVALID_ARGUMENT");
    expect(JSON.stringify(answer.body.error?.details), route).toContain(`"field":"${field}"`);
  }
});

test("a key that asked for logging gets its requests logged, browsed, opened and exported as a cassette", async () => {
  const set = await studio("/api/logs/settings", {
    method: "PUT",
    cookie: ann.cookie,
    body: { subject: `key:${annKey.id}`, logging: { retentionDays: 3 } },
  });
  expect(set.status).toBe(200);
  expect((set.body.keys as Array<{ keyId: string; logging: unknown }>)[0]).toMatchObject({
    keyId: annKey.id,
    logging: { retentionDays: 3, includeMedia: false },
  });
  // Another person cannot set (or see) logging of Ann's key.
  expect(
    (
      await studio("/api/logs/settings", {
        method: "PUT",
        cookie: ben.cookie,
        body: { subject: `key:${annKey.id}`, logging: { retentionDays: 3 } },
      })
    ).status,
  ).toBe(404);
  expect(
    (
      await studio("/api/logs/settings", {
        method: "PUT",
        cookie: ben.cookie,
        body: { subject: `person:${ann.id}`, logging: { retentionDays: 3 } },
      })
    ).status,
  ).toBe(403);

  const picture = await studio(`/v1beta/models/${MODEL}:generateContent`, {
    method: "POST",
    key: annKey.secret,
    body: generateBody(`What is in this picture? My key is ${annKey.secret}.`, true),
  });
  expect(picture.status).toBe(200);
  const stream = await fetch(
    `${server.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
    {
      method: "POST",
      headers: { "x-goog-api-key": annKey.secret, "content-type": "application/json" },
      body: JSON.stringify(generateBody("Tell me a long story.")),
    },
  );
  const streamText = await stream.text();
  expect(streamText.startsWith("data: ")).toBe(true);
  const refused = await studio(`/v1beta/models/${MODEL}:generateContent`, {
    method: "POST",
    key: annKey.secret,
    body: { contents: [] },
  });
  expect(refused.status).toBe(400);
  // Ben's key does not log.
  await studio(`/v1beta/models/${MODEL}:generateContent`, {
    method: "POST",
    key: benKey.secret,
    body: generateBody("Not logged."),
  });

  await expect
    .poll(
      async () =>
        ((await studio("/api/logs", { cookie: ann.cookie })).body.entries as unknown[]).length,
    )
    .toBe(3);
  const page = (await studio("/api/logs", { cookie: ann.cookie })).body as {
    scope: string;
    entries: Array<{
      id: string;
      operation: string;
      status: number;
      keyLabel: string;
      totalTokens: number;
    }>;
  };
  expect(page.scope).toBe("own");
  expect(page.entries.map((entry) => [entry.operation, entry.status])).toEqual([
    ["generateContent", 400],
    ["streamGenerateContent", 200],
    ["generateContent", 200],
  ]);
  expect(page.entries[2]!.totalTokens).toBeGreaterThan(0);
  expect(page.entries[2]!.keyLabel).toBe("ann-script");
  const failed = (await studio("/api/logs?status=4xx", { cookie: ann.cookie })).body
    .entries as unknown[];
  expect(failed).toHaveLength(1);
  const streams = (
    await studio(`/api/logs?model=${MODEL}&status=200&keyId=${annKey.id}`, { cookie: ann.cookie })
  ).body.entries as unknown[];
  expect(streams).toHaveLength(2);
  const nextPage = (await studio("/api/logs?limit=1", { cookie: ann.cookie })).body as {
    nextBefore: string;
  };
  const second = (
    await studio(`/api/logs?limit=1&before=${encodeURIComponent(nextPage.nextBefore)}`, {
      cookie: ann.cookie,
    })
  ).body.entries as Array<{ operation: string }>;
  expect(second[0]!.operation).toBe("streamGenerateContent");

  // One entry with its exchange: Ben finds nothing there, the admin does.
  const id = page.entries[1]!.id;
  expect((await studio(`/api/logs/${id}`, { cookie: ben.cookie })).status).toBe(404);
  expect(
    (await studio(`/api/logs/${encodeURIComponent(id)}%20`, { cookie: ben.cookie })).status,
  ).toBe(404);
  expect((await studio(`/api/logs/${id}`, { key: annKey.secret })).status).toBe(403);
  expect((await studio(`/api/logs/${id}`, { cookie: admin })).status).toBe(200);
  const detail = (await studio(`/api/logs/${id}`, { cookie: ann.cookie })).body as {
    exchange: { responseBody: string; query: Record<string, string> };
  };
  // The stream was logged as the client received it, byte for byte.
  expect(detail.exchange.responseBody).toBe(streamText);
  expect(detail.exchange.query).toEqual({ alt: "sse" });

  // JSONL export: recorded exchanges, a replay cassette; media left out; no secret.
  const exported = await studio("/api/logs/export?format=jsonl", { cookie: ann.cookie });
  expect(exported.status).toBe(200);
  expect(exported.text).not.toContain(annKey.secret);
  expect(exported.text).not.toContain(PIXEL);
  const lines = exported.text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines).toHaveLength(3);
  for (const line of lines) {
    for (const field of [
      "id",
      "operation",
      "method",
      "path",
      "query",
      "requestHeaders",
      "requestBodyEncoding",
      "status",
      "responseHeaders",
      "responseBody",
    ])
      expect(line, field).toHaveProperty(field);
    expect(line.method).toBe("POST");
    expect(line.requestHeaders).toEqual({ "content-type": "application/json" });
    const timing = line.responseTiming as { chunks: Array<[number, number]> };
    expect(timing.chunks.reduce((sum, [, bytes]) => sum + bytes, 0)).toBe(
      Buffer.byteLength(line.responseBody as string),
    );
  }
  const pictureLine = lines[2]!;
  expect(pictureLine.path).toBe(`/v1beta/models/${MODEL}:generateContent`);
  const parts = (
    pictureLine.requestBody as { contents: Array<{ parts: Array<Record<string, unknown>> }> }
  ).contents[0]!.parts;
  expect(parts[0]!.text).toContain("[redacted]");
  expect(parts[1]).toEqual({
    inlineData: {
      mimeType: "image/png",
      data: `[inline data not logged: ${PIXEL.length} characters]`,
    },
  });
  expect((lines[1]!.responseHeaders as Record<string, string>)["content-type"]).toContain(
    "text/event-stream",
  );

  const csv = await studio("/api/logs/export?format=csv&status=4xx", { cookie: ann.cookie });
  expect(csv.text.split("\r\n")[0]).toContain("time,operation,model,status");
  expect(csv.text.trim().split("\r\n")).toHaveLength(2);
  // Ben's export has none of Ann's.
  expect((await studio("/api/logs/export", { cookie: ben.cookie })).text).toBe("");
});

test("admin actions and key changes are in the audit log", async () => {
  await studio(`/api/keys/${benKey.id}`, { method: "DELETE", cookie: ben.cookie });
  const audit = (await studio("/api/admin/audit", { cookie: admin })).body as {
    events: Array<{
      actor: string;
      action: string;
      target: string;
      details: Record<string, unknown>;
    }>;
  };
  const actions = audit.events.map((event) => `${event.actor} ${event.action} ${event.target}`);
  expect(actions).toContain(`ben@usage.test key.revoke key:${benKey.id}`);
  expect(actions).toContain(`ann@usage.test logging.set key:${annKey.id}`);
  expect(actions).toContain(`ann@usage.test key.create key:${annKey.id}`);
  expect(actions).toContain(`${ADMIN.email} invitation.create email:ann@usage.test`);
  expect(JSON.stringify(audit.events)).not.toContain(annKey.secret);
});

async function signInInBrowser(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${server.baseUrl}/`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("link", { name: "Usage" })).toBeVisible();
}

test("the Usage and Logs pages: charts, filters, an entry opened in the inspector", async ({
  page,
}) => {
  await signInInBrowser(page, "ann@usage.test", "ann@usage.test-password");
  await page.getByRole("link", { name: "Usage" }).click();
  await expect(page.getByText("Your usage")).toBeVisible();
  await expect(page.locator("[data-usage-total='Answers']")).toHaveText("4");
  await expect(
    page.locator("[data-usage-chart='day'] rect[data-value]:not([data-value='0'])"),
  ).toHaveCount(1);
  await expect(page.locator("[data-usage-breakdown='key']")).toContainText("ann-script");
  await page.getByLabel("Show").selectOption("cost");
  await expect(page.locator("[data-usage-breakdown='model']")).toContainText("$");
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
    "href",
    "/api/usage/export",
  );
  await expectNoSeriousViolations(page, "main");

  await page.getByRole("link", { name: "Logs" }).click();
  const entries = page.locator("[data-log-entry]");
  await expect(entries).toHaveCount(3);
  await page.getByLabel("Status").selectOption("4xx");
  await expect(entries).toHaveCount(1);
  await page.getByLabel("Status").selectOption("");
  await expect(entries).toHaveCount(3);
  await expectNoSeriousViolations(page, "main");
  await entries
    .nth(1)
    .getByRole("button", { name: /Inspect/ })
    .click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.locator("[data-inspector-fact='HTTP status']")).toHaveText("200");
  await dialog.getByRole("tab", { name: "Events" }).click();
  expect(await dialog.locator("[data-inspector-event]").count()).toBeGreaterThan(1);
});

test("the gateway records each answer's usage too", async () => {
  const session = await fetch(`${gatewayServer.baseUrl}/api/session`, {
    method: "POST",
    headers: {
      origin: gatewayServer.baseUrl,
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
    },
    body: JSON.stringify({ accessCode: GATEWAY_ACCESS_CODE }),
  });
  expect(session.status).toBe(200);
  const cookie = session.headers.get("set-cookie")!.split(";")[0]!;
  const keyId = "env:carol";
  const requests = async () =>
    (
      (await call(gatewayServer.baseUrl, `/api/usage?keyId=${keyId}`, { cookie })).body.total as {
        requests: number;
      }
    ).requests;
  const before = await requests();
  const answered = await call(gatewayServer.baseUrl, `/v1beta/models/${MODEL}:generateContent`, {
    method: "POST",
    key: GATEWAY_KEYS.carol,
    body: generateBody("Name a sea."),
  });
  expect(answered.status).toBe(200);
  const streamed = await call(
    gatewayServer.baseUrl,
    `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
    { method: "POST", key: GATEWAY_KEYS.carol, body: generateBody("Name an ocean.") },
  );
  expect(streamed.status).toBe(200);
  await expect.poll(requests).toBeGreaterThanOrEqual(before + 2);
});
