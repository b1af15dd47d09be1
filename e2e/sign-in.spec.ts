/**
 * Signing in, against production servers of this spec's own (its guessing would lock the
 * shared servers' sign-in for a minute): guesses throttled per client address, whatever
 * headers claim another address, with 429 and Retry-After, the right code too from the
 * address that spent the budget; never from another address, however many guess (and behind
 * a trusted proxy, X-Forwarded-For names each client); access codes of at least 12
 * characters; sessions bound to the code they were opened with; "sign out everywhere", by
 * API and from the page.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import { startUntilExit } from "./support/start-until-exit";

test.describe.configure({ mode: "serial", timeout: 180_000 });

const CODE = "sign-in-spec-code-one";
const OTHER_CODE = "sign-in-spec-code-two";
const KEY = "sign-in-spec-key-0123456789";
const servers: OwnServer[] = [];

async function ownServer(env: Record<string, string>, dataDir?: string): Promise<OwnServer> {
  const server = await startOwnServer({
    dataDir: dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-sign-in-")),
    env: { STUDIO_API_KEYS: `spec:${KEY}`, ...env },
  });
  servers.push(server);
  return server;
}

test.afterAll(async () => {
  for (const server of servers) {
    if (server.alive()) await server.stop("SIGTERM");
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
});

function signIn(server: OwnServer, code: string, headers: Record<string, string> = {}) {
  return fetch(`${server.baseUrl}/api/session`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: server.baseUrl,
      "sec-fetch-site": "same-origin",
      ...headers,
    },
    body: JSON.stringify({ accessCode: code }),
  });
}

async function cookieOf(server: OwnServer, code: string): Promise<string> {
  const response = await signIn(server, code);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

async function sessionAlive(server: OwnServer, cookie: string): Promise<boolean> {
  const state = (await (
    await fetch(`${server.baseUrl}/api/session`, { headers: { cookie } })
  ).json()) as { authenticated: boolean };
  const api = await fetch(`${server.baseUrl}/v1beta/models`, { headers: { cookie } });
  expect(api.status === 200, "the API agrees with /api/session").toBe(state.authenticated);
  return state.authenticated;
}

test("an access code shorter than 12 characters refuses to start", async () => {
  const result = await startUntilExit({
    HOSTNAME: "127.0.0.1",
    STUDIO_ACCESS_CODE: "short-code1",
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-sign-in-short-")),
  });
  expect(result.code).not.toBe(0);
  expect(result.code).not.toBeNull();
  expect(result.output).toContain("at least 12 characters");
});

test("right codes never use up the budget; guesses are throttled per address, whatever the headers say", async () => {
  const server = await ownServer({ STUDIO_ACCESS_CODE: CODE });
  for (let index = 0; index < 25; index++) expect((await signIn(server, CODE)).status).toBe(200);

  const statuses: number[] = [];
  let retryAfter: string | null = null;
  for (let index = 0; index < 300; index++) {
    // A guesser that claims a new address on every try.
    const claimed = `203.0.113.${index % 250}`;
    const response = await signIn(server, `wrong-guess-${index}`, {
      "x-forwarded-for": claimed,
      "x-real-ip": claimed,
      "x-genstudio-client-address": claimed,
    });
    statuses.push(response.status);
    if (response.status === 429) {
      retryAfter ??= response.headers.get("retry-after");
      const body = (await response.json()) as { error: { status: string } };
      expect(body.error.status).toBe("RESOURCE_EXHAUSTED");
    } else await response.text();
  }
  const wrongAnswers = statuses.filter((status) => status === 403).length;
  // 10 a minute per address (one more may refill while the loop runs); the rest 429.
  expect(wrongAnswers).toBeGreaterThanOrEqual(10);
  expect(wrongAnswers).toBeLessThanOrEqual(12);
  expect(statuses.filter((status) => status === 429).length).toBe(300 - wrongAnswers);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  // Out of budget, even the right code waits: guessing on cannot find it. A try refills every
  // 6 s, which a loaded machine may take between two requests: the right code may pass only
  // when the refusal just before it said the wait was over.
  let refused = await signIn(server, "wrong-guess-last");
  for (let tries = 1; refused.status === 403 && tries < 3; tries++)
    refused = await signIn(server, `wrong-guess-last-${tries}`);
  const refusedAt = Date.now();
  expect(refused.status).toBe(429);
  const wait = Number(refused.headers.get("retry-after")) * 1000;
  await refused.text();
  const right = await signIn(server, CODE);
  if (right.status !== 429) expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(wait - 1000);
});

test("guesses from many addresses never block the right code from another; behind a trusted proxy each client counts apart", async () => {
  const server = await ownServer({
    STUDIO_ACCESS_CODE: CODE,
    STUDIO_TRUSTED_PROXIES: "127.0.0.1/32",
  });
  const from = (address: string) => ({ "x-forwarded-for": address });
  // Twelve addresses guess until each is refused: the code is under attack.
  for (let address = 1; address <= 12; address++) {
    for (let index = 0; index < 11; index++)
      await (
        await signIn(server, `wrong-${address}-${index}`, from(`203.0.113.${address}`))
      ).text();
  }
  // The address that guessed last is out of budget (the first may have had a try back by now:
  // one refills every 6 s, and a loaded machine takes that long over the 132 guesses).
  expect((await signIn(server, "wrong-again", from("203.0.113.12"))).status).toBe(429);
  // A person behind the same proxy, at another address, still gets in with the right code.
  expect((await signIn(server, CODE, from("198.51.100.20"))).status).toBe(200);
  // A client's own claim left of the proxy's entry is not believed: the proxy's entry counts.
  expect((await signIn(server, CODE, from("203.0.113.1, 198.51.100.21"))).status).toBe(200);
  expect((await signIn(server, "wrong-once-more", from("198.51.100.22"))).status).toBe(403);
});

test("sessions are bound to the code: a changed or removed code ends them, and changing back does not revive them", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-sign-in-bound-"));
  let server = await ownServer({ STUDIO_ACCESS_CODE: CODE }, dataDir);
  const first = await cookieOf(server, CODE);
  expect(await sessionAlive(server, first)).toBe(true);
  await server.stop("SIGTERM");

  server = await ownServer({ STUDIO_ACCESS_CODE: OTHER_CODE }, dataDir);
  expect(await sessionAlive(server, first)).toBe(false);
  const second = await cookieOf(server, OTHER_CODE);
  expect(await sessionAlive(server, second)).toBe(true);
  await server.stop("SIGTERM");

  // No code at all (keys only): no browser session lives on.
  server = await ownServer({}, dataDir);
  expect(await sessionAlive(server, second)).toBe(false);
  await server.stop("SIGTERM");

  server = await ownServer({ STUDIO_ACCESS_CODE: CODE }, dataDir);
  expect(await sessionAlive(server, first)).toBe(false);
  await server.stop("SIGTERM");
});

test("sign out everywhere ends every browser's session, and only a signed-in browser may ask", async () => {
  const server = await ownServer({ STUDIO_ACCESS_CODE: CODE });
  const one = await cookieOf(server, CODE);
  const two = await cookieOf(server, CODE);
  const everywhere = (cookie?: string) =>
    fetch(`${server.baseUrl}/api/session?everywhere=true`, {
      method: "DELETE",
      headers: {
        origin: server.baseUrl,
        "sec-fetch-site": "same-origin",
        ...(cookie ? { cookie } : {}),
      },
    });
  expect((await everywhere()).status).toBe(403);
  expect(await sessionAlive(server, two)).toBe(true);
  expect((await everywhere(one)).status).toBe(200);
  expect(await sessionAlive(server, one)).toBe(false);
  expect(await sessionAlive(server, two)).toBe(false);
});

test("the page's 'Sign out everywhere' ends the other browsers' sessions too", async ({ page }) => {
  const server = await ownServer({ STUDIO_ACCESS_CODE: CODE });
  const other = await cookieOf(server, CODE);
  await page.goto(server.baseUrl);
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Access code").fill(CODE);
  await form.getByRole("button", { name: "Sign in" }).click();
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByRole("form", { name: "Sign in" })).toBeVisible();
  expect(await sessionAlive(server, other)).toBe(false);
});
