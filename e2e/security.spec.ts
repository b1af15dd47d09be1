/**
 * Security checks against production servers of this spec's own (the gateway's bundle,
 * pages and log scans are in gateway-security.spec.ts; this spec adds what they do not):
 * the upstream key in no answer and no log line while the gateway is fuzzed; no start
 * beyond loopback without credentials, in either mode; no session or API for requests
 * addressed to a foreign host name under the development defaults (DNS rebinding); no
 * cross-site request with a session cookie on any state-changing endpoint; ids and names
 * with path tricks refused with 4xx, touching nothing outside DATA_DIR; oversized bodies
 * refused before they are buffered (server memory measured); and no owner reaching another
 * owner's files, caches, conversations — across keys and the browser session.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { createFuzzClient } from "./support/fuzz/client.mjs";
import { sendHugeBody } from "./support/fuzz/huge-body.mjs";
import { errorBodyProblems } from "./support/fuzz/oracle.mjs";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import { assertFuzz, logFailures } from "./support/fuzz/run.mjs";
import { auditStore, serviceHash } from "./support/fuzz/store-audit";
import { buildWorld, openSession, uploadFile } from "./support/fuzz/world.mjs";
import { startUntilExit } from "./support/start-until-exit";

test.describe.configure({ mode: "serial", timeout: 180_000 });

const KEYS = { alice: "security-alice-key-0123456789", bob: "security-bob-key-0123456789ab" };
const ACCESS_CODE = "security-access-code";
const UPSTREAM_SECRET = "security-upstream-secret-0123456789";
const KEYED_ENV = {
  STUDIO_API_KEYS: `alice:${KEYS.alice},bob:${KEYS.bob}`,
  STUDIO_ACCESS_CODE: ACCESS_CODE,
  STUDIO_RATE_LIMIT_PER_MINUTE: "0",
};

const servers: OwnServer[] = [];

async function ownServer(env: Record<string, string>): Promise<OwnServer> {
  const server = await startOwnServer({
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-security-")),
    env,
  });
  servers.push(server);
  return server;
}

test.afterAll(async () => {
  for (const server of servers) {
    await server.stop("SIGTERM");
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
});

interface Answer {
  status: number;
  text: string;
  headers: Headers;
}

async function call(
  server: OwnServer,
  route: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array<ArrayBuffer>;
  } = {},
): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}${route}`, {
    method: init.method ?? "GET",
    headers: init.headers,
    body: init.body,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

function expectRefusal(
  answer: { status: number; text: string },
  statuses: number[],
  label: string,
): void {
  expect(statuses, `${label}: ${answer.status} ${answer.text.slice(0, 200)}`).toContain(
    answer.status,
  );
  expect(errorBodyProblems(answer.text, answer.status), label).toEqual([]);
}

test("the upstream key is in no answer and no log line while every gateway endpoint is fuzzed", async () => {
  const upstream = await ownServer({
    STUDIO_API_KEYS: `gateway:${UPSTREAM_SECRET}`,
    STUDIO_RATE_LIMIT_PER_MINUTE: "0",
  });
  const gateway = await ownServer({
    ...KEYED_ENV,
    GEMINI_API_KEY: UPSTREAM_SECRET,
    GEMINI_BASE_URL: upstream.baseUrl,
  });
  // Found by this fuzzing: deep nesting reached the gateway's JSON.stringify and came back 502.
  for (const route of [
    "/v1beta/cachedContents",
    "/v1beta/models/gemini-2.5-flash:countTokens",
    "/v1beta/models/gemini-2.5-flash:generateContent",
  ]) {
    for (const depth of [101, 5_000, 50_000]) {
      const answer = await call(gateway, route, {
        method: "POST",
        headers: { "x-goog-api-key": KEYS.alice, "content-type": "application/json" },
        body: `${"[".repeat(depth)}${"]".repeat(depth)}`,
      });
      expectRefusal(answer, [400], `${route} nested ${depth} deep`);
    }
  }
  const world = await buildWorld(gateway.baseUrl, {
    keys: { owner: KEYS.alice, other: KEYS.bob },
    accessCode: ACCESS_CODE,
  });
  const report = await assertFuzz({
    baseUrl: gateway.baseUrl,
    world,
    runs: 1200,
    timeLimitMs: 25_000,
    concurrency: 4,
    timeoutMs: 20_000,
    secrets: [UPSTREAM_SECRET],
  });
  console.log(
    `gateway fuzz: ${report.sent} requests, statuses ${JSON.stringify(report.statuses)}, 0 answers with the upstream key`,
  );
  expect(report.problems).toEqual([]);
  expect(report.sent).toBeGreaterThanOrEqual(200);
  expect(gateway.log()).toContain("mode=upstream");
  expect(gateway.log().includes(UPSTREAM_SECRET), "the gateway logged its upstream key").toBe(
    false,
  );
  expect(logFailures(gateway.log())).toEqual([]);
});

test("beyond loopback without credentials the server refuses to start, in local and gateway mode", async () => {
  // This machine's own address on its network, when it has one (binding elsewhere fails before any check).
  const ownAddress = Object.values(os.networkInterfaces())
    .flat()
    .find((item) => item && item.family === "IPv4" && !item.internal)?.address;
  const cases: Record<string, string>[] = [
    { HOSTNAME: "::" },
    { HOSTNAME: "0.0.0.0", GEMINI_API_KEY: UPSTREAM_SECRET },
    ...(ownAddress ? [{ HOSTNAME: ownAddress, GEMINI_API_KEY: UPSTREAM_SECRET }] : []),
  ];
  for (const extra of cases) {
    const { code, output } = await startUntilExit({
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-refuse-")),
      ...extra,
    });
    expect(code, JSON.stringify(extra)).toBe(1);
    expect(output).toContain("Refusing to start");
    expect(output.includes(UPSTREAM_SECRET), "the refusal printed the upstream key").toBe(false);
  }
});

test("under the development defaults, a request addressed to a foreign host name gets no session and no API (DNS rebinding)", async () => {
  const development = await ownServer({});
  const client = createFuzzClient(development.baseUrl, { connections: 2 });
  const port = development.port;
  try {
    const sessionFrom = (host: string) =>
      client.send({
        label: "session",
        method: "POST",
        path: "/api/session",
        headers: {
          host,
          origin: `http://${host}`,
          "sec-fetch-site": "same-origin",
          "content-type": "application/json",
        },
        body: "{}",
      });
    const modelsFrom = (host: string) =>
      client.send({
        label: "models",
        method: "GET",
        path: "/v1beta/models",
        headers: { host, "x-goog-api-key": "genstudio-dev-key" },
      });
    for (const host of [
      `evil.example:${port}`,
      `rebind.attacker.test:${port}`,
      `192.168.1.20:${port}`,
      "evil.example",
    ]) {
      const session = await sessionFrom(host);
      if ("failure" in session) throw new Error(session.message);
      expectRefusal(session, [403], `session for ${host}`);
      expect(
        session.headers["set-cookie"],
        `a session cookie was issued to ${host}`,
      ).toBeUndefined();
      const models = await modelsFrom(host);
      if ("failure" in models) throw new Error(models.message);
      expectRefusal(models, [403], `models for ${host}`);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const models = await modelsFrom(host);
      expect("status" in models && models.status, `models for ${host}`).toBe(200);
      const session = await sessionFrom(host);
      expect("status" in session && session.status, `session for ${host}`).toBe(200);
    }
  } finally {
    await client.close();
  }
});

test("with a session cookie, cross-site requests are refused on every state-changing endpoint and change nothing", async () => {
  const server = await ownServer(KEYED_ENV);
  const cookie = await openSession(server.baseUrl, ACCESS_CODE);
  const sameSite = {
    cookie,
    origin: server.baseUrl,
    "sec-fetch-site": "same-origin",
    "content-type": "application/json",
  };
  const conversation = JSON.parse(
    (
      await call(server, "/api/conversations", {
        method: "POST",
        headers: sameSite,
        body: JSON.stringify({ title: "mine", settings: { model: "models/gemini-2.5-flash" } }),
      })
    ).text,
  ) as { id: string };
  const cache = JSON.parse(
    (
      await call(server, "/v1beta/cachedContents", {
        method: "POST",
        headers: sameSite,
        body: JSON.stringify({
          model: "models/gemini-2.5-flash",
          contents: [
            { role: "user", parts: [{ text: "Kept safe from other sites. ".repeat(200) }] },
          ],
        }),
      })
    ).text,
  ) as { name: string; expireTime: string };
  const started = await call(server, "/upload/v1beta/files", {
    method: "POST",
    headers: {
      ...sameSite,
      "X-Goog-Upload-Protocol": "resumable",
      "X-Goog-Upload-Command": "start",
      "X-Goog-Upload-Header-Content-Length": "5",
      "X-Goog-Upload-Header-Content-Type": "text/plain",
    },
    body: "{}",
  });
  const uploadUrl = new URL(started.headers.get("x-goog-upload-url")!);
  const file = JSON.parse(
    (
      await call(server, `${uploadUrl.pathname}${uploadUrl.search}`, {
        method: "POST",
        headers: { "X-Goog-Upload-Command": "upload, finalize", "X-Goog-Upload-Offset": "0" },
        body: "hello",
      })
    ).text,
  ) as { file: { name: string } };

  const attacks: [string, string, unknown?][] = [
    ["POST", "/api/conversations", { settings: { model: "models/gemini-2.5-flash" } }],
    ["PATCH", `/api/conversations/${conversation.id}`, { title: "defaced" }],
    ["DELETE", `/api/conversations/${conversation.id}`],
    [
      "POST",
      `/api/conversations/${conversation.id}/messages`,
      { messages: [{ id: "x1", role: "user", content: { parts: [{ text: "injected" }] } }] },
    ],
    ["DELETE", "/api/session"],
    ["POST", "/api/session", { accessCode: ACCESS_CODE }],
    ["DELETE", `/v1beta/${file.file.name}`],
    [
      "POST",
      "/v1beta/cachedContents",
      { model: "models/gemini-2.5-flash", contents: [{ parts: [{ text: "x" }] }] },
    ],
    ["PATCH", `/v1beta/${cache.name}`, { ttl: "1s" }],
    ["DELETE", `/v1beta/${cache.name}`],
    [
      "POST",
      "/v1beta/models/gemini-2.5-flash:countTokens",
      { contents: [{ parts: [{ text: "spend my quota" }] }] },
    ],
    [
      "POST",
      "/v1beta/models/gemini-2.5-flash:generateContent",
      { contents: [{ parts: [{ text: "spend my quota" }] }] },
    ],
  ];
  const crossSiteHeaders: Record<string, string>[] = [
    { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
    { "sec-fetch-site": "same-site", origin: "https://sub.evil.example" },
    { origin: "https://evil.example" },
    { origin: "null" },
    // "none" is what a typed address sends; it never outweighs a foreign Origin.
    { "sec-fetch-site": "none", origin: "https://evil.example" },
  ];
  let refused = 0;
  for (const [method, route, body] of attacks) {
    for (const headers of crossSiteHeaders) {
      const answer = await call(server, route, {
        method,
        headers: { cookie, "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expectRefusal(answer, [403], `${method} ${route} ${JSON.stringify(headers)}`);
      expect(answer.headers.get("set-cookie")).toBeNull();
      refused++;
    }
  }
  // Nothing changed, and the session still works.
  const after = JSON.parse(
    (await call(server, `/api/conversations/${conversation.id}`, { headers: sameSite })).text,
  ) as { title: string; messages: unknown[] };
  expect(after).toMatchObject({ title: "mine", messages: [] });
  expect(
    (
      JSON.parse((await call(server, "/api/conversations", { headers: sameSite })).text) as {
        conversations: unknown[];
      }
    ).conversations,
  ).toHaveLength(1);
  expect((await call(server, `/v1beta/${file.file.name}`, { headers: sameSite })).status).toBe(200);
  expect(
    JSON.parse((await call(server, `/v1beta/${cache.name}`, { headers: sameSite })).text),
  ).toMatchObject({ name: cache.name, expireTime: cache.expireTime });
  console.log(
    `cross-site: ${refused} requests with a session cookie refused (403), nothing changed`,
  );
});

const PATH_TRICKS = [
  "..",
  "../",
  "../../genstudio.sqlite",
  "../../../canary",
  "..\\..\\genstudio.sqlite",
  "%2e%2e",
  ".%2e",
  "%2e%2e%2fgenstudio.sqlite",
  "..%2f..%2fcanary",
  "%252e%252e%252fcanary",
  "%c0%ae%c0%ae%c0%afcanary",
  "a/../../canary",
  "/etc/passwd",
  "files/../cachedContents/x",
  "\u0000",
  "x\u0000.txt",
  "..\u0000",
  "....//....//canary",
  "~root",
  "*",
  "x".repeat(3000),
];

test("ids and names with path tricks are refused with 4xx and reach nothing outside the data", async () => {
  const server = await ownServer(KEYED_ENV);
  const canary = path.join(path.dirname(server.dataDir), `canary-${path.basename(server.dataDir)}`);
  fs.writeFileSync(canary, "canary bytes that must never be served or deleted");
  const fileName = await uploadFile(
    server.baseUrl,
    KEYS.alice,
    new TextEncoder().encode("a real file"),
    "text/plain",
    "real.txt",
  );
  const cookie = await openSession(server.baseUrl, ACCESS_CODE);
  const client = createFuzzClient(server.baseUrl, { connections: 4 });
  const key = { "x-goog-api-key": KEYS.alice, "content-type": "application/json" };
  // How a trick reaches the server: as is, percent-encoded once, or twice.
  const encodings: Record<string, (value: string) => string> = {
    raw: (value) =>
      /^[\x21-\x7e]*$/.test(value) && !value.includes("?") && !value.includes("#")
        ? value
        : encodeURIComponent(value),
    encoded: (value) => encodeURIComponent(value),
    double: (value) => encodeURIComponent(encodeURIComponent(value)),
  };
  type Build = (
    segment: string,
    trick: string,
  ) => { method: string; path: string; headers: Record<string, string>; body?: string };
  const endpoints: Record<string, Build> = {
    "files.get": (segment) => ({ method: "GET", path: `/v1beta/files/${segment}`, headers: key }),
    "files.delete": (segment) => ({
      method: "DELETE",
      path: `/v1beta/files/${segment}`,
      headers: key,
    }),
    "cachedContents.get": (segment) => ({
      method: "GET",
      path: `/v1/cachedContents/${segment}`,
      headers: key,
    }),
    "cachedContents.patch": (segment) => ({
      method: "PATCH",
      path: `/v1beta/cachedContents/${segment}`,
      headers: key,
      body: JSON.stringify({ ttl: "60s" }),
    }),
    "cachedContents.delete": (segment) => ({
      method: "DELETE",
      path: `/v1beta/cachedContents/${segment}`,
      headers: key,
    }),
    "models.get": (segment) => ({ method: "GET", path: `/v1beta/models/${segment}`, headers: key }),
    "models.countTokens": (segment) => ({
      method: "POST",
      path: `/v1beta/models/${segment}:countTokens`,
      headers: key,
      body: JSON.stringify({ contents: [{ parts: [{ text: "x" }] }] }),
    }),
    "conversations.get": (segment) => ({
      method: "GET",
      path: `/api/conversations/${segment}`,
      headers: key,
    }),
    "conversations.patch": (segment) => ({
      method: "PATCH",
      path: `/api/conversations/${segment}`,
      headers: key,
      body: JSON.stringify({ title: "t" }),
    }),
    "conversations.delete": (segment) => ({
      method: "DELETE",
      path: `/api/conversations/${segment}`,
      headers: { cookie },
    }),
    "conversations.messages": (segment) => ({
      method: "POST",
      path: `/api/conversations/${segment}/messages`,
      headers: key,
      body: JSON.stringify({ messages: [] }),
    }),
    "upload.query": (segment) => ({
      method: "POST",
      path: `/upload/v1beta/files?upload_id=${segment}`,
      headers: { "X-Goog-Upload-Command": "query" },
    }),
    "upload.cancel": (segment) => ({
      method: "POST",
      path: `/upload/v1beta/files?upload_id=${segment}`,
      headers: { "X-Goog-Upload-Command": "cancel" },
    }),
    "upload.chunk": (segment) => ({
      method: "PUT",
      path: `/upload/v1/files?upload_id=${segment}`,
      headers: { "X-Goog-Upload-Command": "upload, finalize", "X-Goog-Upload-Offset": "0" },
      body: "bytes",
    }),
    "upload.start name": (_segment, trick) => ({
      method: "POST",
      path: "/upload/v1beta/files",
      headers: {
        ...key,
        "X-Goog-Upload-Protocol": "resumable",
        "X-Goog-Upload-Command": "start",
        "X-Goog-Upload-Header-Content-Length": "5",
        "X-Goog-Upload-Header-Content-Type": "text/plain",
      },
      body: JSON.stringify({ file: { name: `files/${trick}` } }),
    }),
    "countTokens fileUri": (_segment, trick) => ({
      method: "POST",
      path: "/v1beta/models/gemini-2.5-flash:countTokens",
      headers: key,
      body: JSON.stringify({
        contents: [
          {
            parts: [
              {
                fileData: {
                  mimeType: "text/plain",
                  fileUri: `${server.baseUrl}/v1beta/files/${trick}`,
                },
              },
            ],
          },
        ],
      }),
    }),
    "countTokens cachedContent": (_segment, trick) => ({
      method: "POST",
      path: "/v1beta/models/gemini-2.5-flash:countTokens",
      headers: key,
      body: JSON.stringify({
        generateContentRequest: {
          model: "models/gemini-2.5-flash",
          contents: [{ parts: [{ text: "x" }] }],
          cachedContent: `cachedContents/${trick}`,
        },
      }),
    }),
  };
  let sent = 0;
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATH_TRICKS),
        fc.constantFrom(...Object.keys(encodings)),
        fc.constantFrom(...Object.keys(endpoints)),
        async (trick, encoding, endpoint) => {
          const request = endpoints[endpoint]!(encodings[encoding]!(trick), trick);
          const answer = await client.send({ label: endpoint, ...request }, { timeoutMs: 15_000 });
          sent++;
          if ("failure" in answer)
            throw new Error(`${endpoint} ${request.path}: ${answer.message}`);
          expect(
            answer.status,
            `${endpoint} ${request.path} -> ${answer.text.slice(0, 200)}`,
          ).toBeGreaterThanOrEqual(400);
          expect(
            answer.status,
            `${endpoint} ${request.path} -> ${answer.text.slice(0, 200)}`,
          ).toBeLessThan(500);
          expect(errorBodyProblems(answer.text, answer.status)).toEqual([]);
          expect(answer.text).not.toContain("canary bytes");
          expect(answer.text).not.toContain("SQLite format");
        },
      ),
      { numRuns: 400 },
    );
  } finally {
    await client.close();
  }
  expect(fs.readFileSync(canary, "utf8")).toBe("canary bytes that must never be served or deleted");
  fs.rmSync(canary);
  expect((await call(server, `/v1beta/${fileName}`, { headers: key })).status).toBe(200);
  expect(auditStore(server.dataDir, { readonly: true }).integrity).toBe("ok");
  console.log(
    `path tricks: ${sent} requests (${PATH_TRICKS.length} tricks x 3 encodings x ${Object.keys(endpoints).length} endpoints, sampled), all 4xx with the error body; canary and store untouched`,
  );
});

test("oversized bodies are refused before they are buffered: server memory stays flat under a 500 MB body", async () => {
  const server = await ownServer(KEYED_ENV);
  const total = 500 * 1024 * 1024;
  const json = { "x-goog-api-key": KEYS.alice, "content-type": "application/json" };
  const figures: string[] = [];
  const cases: {
    label: string;
    route: string;
    headers: Record<string, string>;
    declared: boolean;
    cap: number;
  }[] = [
    {
      label: "countTokens, Content-Length 500 MB",
      route: "/v1beta/models/gemini-2.5-flash:countTokens",
      headers: json,
      declared: true,
      cap: 100 * 1024 * 1024,
    },
    {
      label: "countTokens, chunked 500 MB",
      route: "/v1beta/models/gemini-2.5-flash:countTokens",
      headers: json,
      declared: false,
      cap: 100 * 1024 * 1024,
    },
    {
      label: "conversations, chunked 500 MB",
      route: "/api/conversations",
      headers: json,
      declared: false,
      cap: 32 * 1024 * 1024,
    },
    {
      label: "session, chunked 500 MB",
      route: "/api/session",
      headers: { "content-type": "application/json", origin: server.baseUrl },
      declared: false,
      cap: 4096,
    },
  ];
  for (const item of cases) {
    const result = await sendHugeBody(server, item.route, item.headers, total, item.declared);
    const status = "status" in result.outcome ? result.outcome.status : result.outcome.error;
    figures.push(
      `${item.label}: ${status} after ${Math.round(result.sentBytes / 1048576)} MB sent in ${result.ms} ms, server RSS +${Math.round(result.growthBytes / 1048576)} MB`,
    );
    expect("status" in result.outcome, `${item.label}: ${status}`).toBe(true);
    if ("status" in result.outcome) expectRefusal(result.outcome, [413], item.label);
    // Never the whole body: at most the endpoint's cap is held (plus the runtime's own noise).
    expect(result.sentBytes, item.label).toBeLessThan(total);
    expect(result.growthBytes, item.label).toBeLessThan(item.cap * 1.6 + 64 * 1024 * 1024);
  }
  console.log(`oversized bodies:\n  ${figures.join("\n  ")}`);
  expect((await call(server, "/api/session")).status).toBe(200);
});

test("no owner reaches another's files, caches or conversations: keys and the browser session, every operation", async () => {
  const server = await ownServer(KEYED_ENV);
  const cookie = await openSession(server.baseUrl, ACCESS_CODE);
  const owners: Record<string, Record<string, string>> = {
    alice: { "x-goog-api-key": KEYS.alice, "content-type": "application/json" },
    bob: { "x-goog-api-key": KEYS.bob, "content-type": "application/json" },
    session: {
      cookie,
      origin: server.baseUrl,
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
    },
  };
  const bytes = new TextEncoder().encode("Owned bytes. ".repeat(40));
  const owned: Record<
    string,
    { file: string; cache: { name: string; expireTime: string }; conversation: string }
  > = {};
  for (const [owner, headers] of Object.entries(owners)) {
    const started = await call(server, "/upload/v1beta/files", {
      method: "POST",
      headers: {
        ...headers,
        "X-Goog-Upload-Protocol": "resumable",
        "X-Goog-Upload-Command": "start",
        "X-Goog-Upload-Header-Content-Length": String(bytes.length),
        "X-Goog-Upload-Header-Content-Type": "text/plain",
      },
      body: "{}",
    });
    const url = new URL(started.headers.get("x-goog-upload-url")!);
    const file = JSON.parse(
      (
        await call(server, `${url.pathname}${url.search}`, {
          method: "POST",
          headers: { "X-Goog-Upload-Command": "upload, finalize", "X-Goog-Upload-Offset": "0" },
          body: bytes,
        })
      ).text,
    ).file.name as string;
    const cache = JSON.parse(
      (
        await call(server, "/v1beta/cachedContents", {
          method: "POST",
          headers,
          body: JSON.stringify({
            model: "models/gemini-2.5-flash",
            contents: [
              { role: "user", parts: [{ text: `${owner}'s private context. `.repeat(300) }] },
            ],
          }),
        })
      ).text,
    ) as { name: string; expireTime: string };
    const conversation = JSON.parse(
      (
        await call(server, "/api/conversations", {
          method: "POST",
          headers,
          body: JSON.stringify({
            title: `${owner} private`,
            settings: { model: "models/gemini-2.5-flash" },
          }),
        })
      ).text,
    ).id as string;
    await call(server, `/api/conversations/${conversation}/messages`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        messages: [
          { id: "m1", role: "user", content: { role: "user", parts: [{ text: "secret" }] } },
        ],
      }),
    });
    owned[owner] = { file, cache, conversation };
  }
  let refused = 0;
  for (const [intruder, headers] of Object.entries(owners)) {
    for (const [victim, resources] of Object.entries(owned)) {
      if (victim === intruder) continue;
      const label = `${intruder} on ${victim}'s`;
      const attempts: [string, string, string | undefined, number[]][] = [
        ["GET", `/v1beta/${resources.file}`, undefined, [403]],
        ["DELETE", `/v1beta/${resources.file}`, undefined, [403]],
        [
          "POST",
          "/v1beta/models/gemini-2.5-flash:countTokens",
          JSON.stringify({
            contents: [
              {
                parts: [
                  {
                    fileData: {
                      mimeType: "text/plain",
                      fileUri: `${server.baseUrl}/v1beta/${resources.file}`,
                    },
                  },
                ],
              },
            ],
          }),
          [403],
        ],
        [
          "POST",
          "/v1beta/models/gemini-2.5-flash:generateContent",
          JSON.stringify({
            contents: [
              {
                parts: [
                  {
                    fileData: {
                      mimeType: "text/plain",
                      fileUri: `${server.baseUrl}/v1beta/${resources.file}`,
                    },
                  },
                ],
              },
            ],
          }),
          [403, 404],
        ],
        ["GET", `/v1beta/${resources.cache.name}`, undefined, [403]],
        ["PATCH", `/v1beta/${resources.cache.name}`, JSON.stringify({ ttl: "1s" }), [403]],
        ["DELETE", `/v1beta/${resources.cache.name}`, undefined, [403]],
        [
          "POST",
          "/v1beta/models/gemini-2.5-flash:countTokens",
          JSON.stringify({
            generateContentRequest: {
              model: "models/gemini-2.5-flash",
              contents: [{ parts: [{ text: "x" }] }],
              cachedContent: resources.cache.name,
            },
          }),
          [403],
        ],
        ["GET", `/api/conversations/${resources.conversation}`, undefined, [404]],
        [
          "PATCH",
          `/api/conversations/${resources.conversation}`,
          JSON.stringify({ title: "taken" }),
          [404],
        ],
        [
          "POST",
          `/api/conversations/${resources.conversation}/messages`,
          JSON.stringify({ after: null, messages: [] }),
          [404],
        ],
        ["DELETE", `/api/conversations/${resources.conversation}`, undefined, [404]],
      ];
      for (const [method, route, body, statuses] of attempts) {
        expectRefusal(
          await call(server, route, { method, headers, body }),
          statuses,
          `${label} ${method} ${route}`,
        );
        refused++;
      }
    }
    // Listings show only the caller's own.
    const files = JSON.parse((await call(server, "/v1beta/files", { headers })).text) as {
      files?: { name: string }[];
    };
    expect((files.files ?? []).map((file) => file.name)).toEqual([owned[intruder]!.file]);
    const caches = JSON.parse((await call(server, "/v1beta/cachedContents", { headers })).text) as {
      cachedContents?: { name: string }[];
    };
    expect((caches.cachedContents ?? []).map((cache) => cache.name)).toEqual([
      owned[intruder]!.cache.name,
    ]);
    const conversations = JSON.parse(
      (await call(server, "/api/conversations", { headers })).text,
    ) as { conversations: { id: string }[] };
    expect(conversations.conversations.map((conversation) => conversation.id)).toEqual([
      owned[intruder]!.conversation,
    ]);
  }
  // Every owner still has everything, unchanged.
  for (const [owner, headers] of Object.entries(owners)) {
    const resources = owned[owner]!;
    const file = JSON.parse(
      (await call(server, `/v1beta/${resources.file}`, { headers })).text,
    ) as { sha256Hash: string };
    expect(file.sha256Hash).toBe(serviceHash(bytes));
    expect(
      JSON.parse((await call(server, `/v1beta/${resources.cache.name}`, { headers })).text),
    ).toMatchObject({ expireTime: resources.cache.expireTime });
    const conversation = JSON.parse(
      (await call(server, `/api/conversations/${resources.conversation}`, { headers })).text,
    ) as { title: string; messages: { id: string }[] };
    expect(conversation).toMatchObject({ title: `${owner} private`, messages: [{ id: "m1" }] });
  }
  console.log(
    `ownership: ${refused} cross-owner operations refused across 3 owners (2 keys and the browser session); nothing changed`,
  );
});

test("conversation ids are each owner's own: two owners keep conversation x apart, and neither learns of the other's", async () => {
  const server = await ownServer(KEYED_ENV);
  const owners: Record<string, Record<string, string>> = {
    alice: { "x-goog-api-key": KEYS.alice, "content-type": "application/json" },
    bob: { "x-goog-api-key": KEYS.bob, "content-type": "application/json" },
  };
  const id = "shared-conversation-0001";
  const settings = {
    model: "models/gemini-2.5-flash",
    generationConfig: { maxOutputTokens: 24, thinkingConfig: { thinkingBudget: 0 } },
  };
  for (const [owner, headers] of Object.entries(owners)) {
    // The same id, the same message ids: each owner's own conversation, never "already taken".
    const turn = await call(server, `/api/conversations/${id}/turns`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        parentId: null,
        prompt: {
          id: "p1",
          content: { role: "user", parts: [{ text: `${owner}'s secret word is ${owner}word` }] },
        },
        answerId: "a1",
        settings,
        create: {},
      }),
    });
    expect(turn.status, turn.text).toBe(200);
    expect(turn.text).toContain('"done"');
    const created = await call(server, "/api/conversations", {
      method: "POST",
      headers,
      body: JSON.stringify({ id: `${owner}-only-conversation`, title: `${owner} only`, settings }),
    });
    expect(created.status, created.text).toBe(200);
  }
  const again = await call(server, "/api/conversations", {
    method: "POST",
    headers: owners.bob,
    body: JSON.stringify({ id: "alice-only-conversation", title: "bob's own", settings }),
  });
  expect(again.status, again.text).toBe(200);
  expect(JSON.parse(again.text)).toMatchObject({ title: "bob's own", messages: [] });

  for (const [owner, headers] of Object.entries(owners)) {
    const other = owner === "alice" ? "bob" : "alice";
    const read = JSON.parse((await call(server, `/api/conversations/${id}`, { headers })).text) as {
      title: string;
      messages: { id: string; content: { parts: { text?: string }[] } }[];
    };
    expect(read.title).toBe(`${owner}'s secret word is ${owner}word`);
    expect(read.messages.map((message) => message.id)).toEqual(["p1", "a1"]);
    expect(JSON.stringify(read)).not.toContain(`${other}word`);
    const found = JSON.parse(
      (await call(server, `/api/conversations?q=${other}word`, { headers })).text,
    ) as { conversations: unknown[] };
    expect(found.conversations).toEqual([]);
    const exported = await call(server, "/api/conversations/export?format=json", { headers });
    expect(exported.status).toBe(200);
    expect(exported.text).toContain(`${owner}word`);
    expect(exported.text).not.toContain(`${other}word`);
  }
  // A change or delete by one leaves the other's untouched.
  await call(server, `/api/conversations/${id}`, {
    method: "PATCH",
    headers: owners.bob,
    body: JSON.stringify({ title: "bob renamed" }),
  });
  expect(
    (await call(server, `/api/conversations/${id}`, { method: "DELETE", headers: owners.bob }))
      .status,
  ).toBe(200);
  expect((await call(server, `/api/conversations/${id}`, { headers: owners.bob })).status).toBe(
    404,
  );
  const kept = JSON.parse(
    (await call(server, `/api/conversations/${id}`, { headers: owners.alice })).text,
  ) as { title: string; messages: unknown[] };
  expect(kept).toMatchObject({ title: "alice's secret word is aliceword" });
  expect(kept.messages).toHaveLength(2);
});
