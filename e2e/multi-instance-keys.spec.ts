/**
 * Keys people make, on two instances of one PostgreSQL database: a key made on one works on
 * the other at once; revoked on one, it stops on the other within a second (the identity
 * cache's version, NOTIFY and poll); a key's budget is one budget across both instances.
 * Needs TEST_DATABASE_URL (scripts/test.sh starts a PostgreSQL server).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import { TEST_SERVER_URL, createDatabase } from "./support/test-postgres";

test.skip(!TEST_SERVER_URL, "needs TEST_DATABASE_URL (scripts/test.sh starts a PostgreSQL server)");
test.describe.configure({ mode: "serial", timeout: 180_000 });

const ADMIN = { email: "admin@keys.test", password: "keys-admin-password" };
let first: OwnServer;
let second: OwnServer;
let dataDir: string;

test.beforeAll(async () => {
  const databaseUrl = await createDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-multi-keys-"));
  const env = {
    DATABASE_URL: databaseUrl,
    STUDIO_ADMIN_EMAIL: ADMIN.email,
    STUDIO_ADMIN_PASSWORD: ADMIN.password,
    STUDIO_RATE_LIMIT_PER_MINUTE: "0",
  };
  [first, second] = await Promise.all([
    startOwnServer({ dataDir, env }),
    startOwnServer({ dataDir, env }),
  ]);
});

test.afterAll(async () => {
  for (const server of [first, second]) if (server?.alive()) await server.stop("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function signIn(server: OwnServer): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/session`, {
    method: "POST",
    headers: {
      origin: server.baseUrl,
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
    },
    body: JSON.stringify(ADMIN),
  });
  expect(response.status).toBe(200);
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

function studio(server: OwnServer, route: string, cookie: string, method = "GET", body?: unknown) {
  return fetch(`${server.baseUrl}${route}`, {
    method,
    headers: {
      cookie,
      origin: server.baseUrl,
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

function models(server: OwnServer, key: string): Promise<number> {
  return fetch(`${server.baseUrl}/v1beta/models`, { headers: { "x-goog-api-key": key } }).then(
    (response) => response.status,
  );
}

test("a key made on one instance works on the other at once, and stops there within a second of its revocation", async () => {
  const cookie = await signIn(first);
  for (let round = 0; round < 3; round++) {
    const made = (await (
      await studio(first, "/api/keys", cookie, "POST", { name: `round ${round}` })
    ).json()) as {
      key: { id: string };
      secret: string;
    };
    // The other instance has this key's owner cached and has been asked about other keys: still at once.
    expect(await models(second, made.secret)).toBe(200);
    expect(await models(second, made.secret)).toBe(200);
    const revokedAt = Date.now();
    expect((await studio(first, `/api/keys/${made.key.id}`, cookie, "DELETE")).status).toBe(200);
    expect(await models(first, made.secret)).toBe(400);
    let stoppedAfter = Infinity;
    while (Date.now() - revokedAt < 3000) {
      if ((await models(second, made.secret)) === 400) {
        stoppedAfter = Date.now() - revokedAt;
        break;
      }
    }
    expect(stoppedAfter, `round ${round}`).toBeLessThan(1000);
    // And it stays stopped.
    expect(await models(second, made.secret)).toBe(400);
  }
});

test("a key's budget is one budget across both instances", async () => {
  const cookie = await signIn(second);
  const made = (await (
    await studio(second, "/api/keys", cookie, "POST", {
      name: "budget",
      limits: { tokensPerDay: 150 },
    })
  ).json()) as { secret: string };
  const generate = (server: OwnServer) =>
    fetch(`${server.baseUrl}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: "POST",
      headers: { "x-goog-api-key": made.secret, "content-type": "application/json" },
      body: JSON.stringify({
        contents: [{ parts: [{ text: "Tell me about lighthouses." }] }],
        generationConfig: { maxOutputTokens: 40 },
      }),
    });
  let answered = 0;
  let refused = 0;
  for (let index = 0; index < 12 && refused < 2; index++) {
    const status = (await generate(index % 2 === 0 ? first : second)).status;
    if (status === 200) answered++;
    else if (status === 429) refused++;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  // About 50 tokens an answer: three or four answers fit, spread over both instances, then both refuse.
  expect(answered).toBeGreaterThanOrEqual(3);
  expect(answered).toBeLessThanOrEqual(5);
  expect(refused).toBe(2);
});
