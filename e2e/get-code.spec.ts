import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test, type Locator } from "@playwright/test";
import { parseGenerateContentRequest } from "@/lib/gemini/validate";
import { FLASH } from "@/lib/testing/model-traits";
import { ChatPage } from "./pages/chat-page";
import { expectNoSeriousViolations } from "./pages/answer-metadata";
import { attachmentCard, dropFiles } from "./pages/files-page";
import { DEVELOPMENT_KEY } from "./support/servers";

/**
 * Get code: the snippets the chat shows are run as they are, by curl, the official
 * Python SDK (google-genai, from the venv scripts/python-venv.sh makes) and the official JS SDK
 * (@google/genai), against the local engine; and against a recording server, where the body
 * each client sends must be the request the studio itself sends (compared in canonical form:
 * the Python SDK writes some fields in snake_case).
 */

const PYTHON = path.resolve(
  process.env.GENSTUDIO_PYTHON_VENV ?? ".cache/python-venv",
  "bin/python",
);

function run(
  command: string,
  args: string[],
  environment: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { env: { ...process.env, ...environment }, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error.code as number) ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A server that records each request body and answers one fixed streamed chunk. */
async function recordingServer(): Promise<{
  origin: string;
  requests: { url: string; key: string | undefined; body: unknown }[];
  close(): void;
}> {
  const requests: { url: string; key: string | undefined; body: unknown }[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      requests.push({
        url: request.url ?? "",
        key: request.headers["x-goog-api-key"] as string | undefined,
        body: JSON.parse(body),
      });
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.end(
        'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"recorded"}]},"finishReason":"STOP","index":0}]}\r\n\r\n',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, requests, close: () => server.close() };
}

async function snippetOf(dialog: Locator, tab: string): Promise<string> {
  await dialog.getByRole("tab", { name: tab, exact: true }).click();
  return (await dialog.getByRole("tabpanel").locator("pre code").textContent()) ?? "";
}

function restBody(rest: string): unknown {
  return JSON.parse(rest.slice(rest.indexOf("\n\n") + 2));
}

test("get code: the snippets send exactly the studio's request, and work against the local engine", async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  expect(fs.existsSync(PYTHON), `run scripts/python-venv.sh first (${PYTHON})`).toBe(true);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(64);
  await chat.fillSetting("Temperature", "0.3");
  await chat.setting("System instruction").fill("Answer in plain words.");
  const phrase = `the lighthouse keeper counts ${Date.now()} gulls`;
  await chat.prompt.fill(`Repeat after me: ${phrase}`);

  await page.getByRole("button", { name: "Get code for the next message" }).click();
  const dialog = page.getByRole("dialog", { name: "Code for the next message" });
  await expect(dialog).toBeVisible();
  const origin = new URL(page.url()).origin;
  const snippets = {
    curl: await snippetOf(dialog, "curl"),
    python: await snippetOf(dialog, "Python"),
    javascript: await snippetOf(dialog, "JavaScript"),
    rest: await snippetOf(dialog, "REST JSON"),
  };
  for (const snippet of Object.values(snippets)) {
    expect(snippet).toContain(origin);
    expect(snippet).toContain("GEMINI_API_KEY");
    // Never the development key, a studio key or the session.
    expect(snippet).not.toContain(DEVELOPMENT_KEY);
    expect(snippet.toLowerCase()).not.toContain("cookie");
  }
  const expected = restBody(snippets.rest) as {
    contents: { parts: { text?: string }[] }[];
    generationConfig: Record<string, unknown>;
  };
  expect(expected.contents.at(-1)?.parts[0]?.text).toBe(`Repeat after me: ${phrase}`);
  expect(expected.generationConfig).toMatchObject({
    temperature: 0.3,
    maxOutputTokens: 64,
    thinkingConfig: { thinkingBudget: 0 },
  });
  await expectNoSeriousViolations(page, "dialog[open]");

  // Pointed at the service instead: the same request, the service's URL, no studio origin.
  await dialog.getByRole("radio", { name: /The Gemini API/ }).check();
  const serviceCurl = await snippetOf(dialog, "curl");
  expect(serviceCurl).toContain(
    "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
  );
  expect(serviceCurl).not.toContain(origin);
  expect(await snippetOf(dialog, "JavaScript")).not.toContain("baseUrl");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Get code for the next message" })).toBeFocused();

  // What the studio's server sends for the answer is the REST body.
  const sent = chat.nextTurnRequest();
  await chat.prompt.press("Enter");
  expect(await sent).toEqual(expected);
  await chat.waitForAnswerDone();

  // Each snippet, run unchanged against this studio, gets the answer.
  const directory = testInfo.outputPath("snippets");
  fs.mkdirSync(directory, { recursive: true });
  const files = {
    curl: path.join(directory, "request.sh"),
    python: path.join(directory, "request.py"),
    javascript: path.join(directory, "request.mjs"),
  };
  fs.writeFileSync(files.curl, snippets.curl);
  fs.writeFileSync(files.python, snippets.python);
  fs.writeFileSync(files.javascript, snippets.javascript);
  const environment = { GEMINI_API_KEY: DEVELOPMENT_KEY };
  const results = await Promise.all([
    run("bash", [files.curl], environment),
    run(PYTHON, [files.python], environment),
    run(process.execPath, [files.javascript], environment),
  ]);
  for (const [index, result] of results.entries()) {
    expect(result.stderr, ["curl", "python", "javascript"][index]).toBe("");
    expect(result.code).toBe(0);
  }
  // curl prints the raw events; the SDK snippets print the text.
  expect(results[0]!.stdout).toContain("data: {");
  const curlText = results[0]!.stdout
    .split(/\r?\n/)
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)).candidates?.[0]?.content?.parts?.[0]?.text ?? "")
    .join("");
  expect(curlText).toBe(phrase);
  expect(results[1]!.stdout.trim()).toBe(phrase);
  expect(results[2]!.stdout.trim()).toBe(phrase);

  // Against a recording server, each client's body is the studio's request.
  const recorder = await recordingServer();
  try {
    for (const [name, file] of Object.entries(files)) {
      const redirected = `${file}.recorded${path.extname(file)}`;
      fs.writeFileSync(
        redirected,
        fs.readFileSync(file, "utf8").replaceAll(origin, recorder.origin),
      );
      const command = name === "curl" ? "bash" : name === "python" ? PYTHON : process.execPath;
      const result = await run(command, [redirected], { GEMINI_API_KEY: "placeholder-key" });
      expect(result.stderr, name).toBe("");
    }
    expect(recorder.requests).toHaveLength(3);
    const canonical = parseGenerateContentRequest(expected, FLASH);
    for (const recorded of recorder.requests) {
      expect(recorded.url).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
      expect(recorded.key).toBe("placeholder-key");
      expect(parseGenerateContentRequest(recorded.body, FLASH)).toEqual(canonical);
    }
  } finally {
    recorder.close();
  }
});

test("get code of an answer: the request that produced it", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(32);
  await chat.send("Repeat after me: first turn");
  await chat.waitForAnswerDone();
  await chat.send("Repeat after me: second turn");
  await chat.waitForAnswerDone();
  await chat.answers.first().getByRole("button", { name: "Get code for this answer" }).click();
  const dialog = page.getByRole("dialog", { name: "Code for this answer's request" });
  const first = restBody(await snippetOf(dialog, "REST JSON")) as { contents: unknown[] };
  expect(first.contents).toEqual([
    { role: "user", parts: [{ text: "Repeat after me: first turn" }] },
  ]);
  await dialog.getByRole("button", { name: "Close" }).click();
  await chat.lastAnswer().getByRole("button", { name: "Get code for this answer" }).click();
  const second = restBody(await snippetOf(dialog, "REST JSON")) as {
    contents: { role: string; parts: { text: string }[] }[];
  };
  expect(second.contents.map((content) => content.role)).toEqual(["user", "model", "user"]);
  expect(second.contents[1]!.parts[0]!.text).toBe("first turn");
});

test("get code carries every part of the request: files by URI, safety, tools and a cached content", async ({
  page,
  browser,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  const dialog = page.getByRole("dialog", { name: "Code for the next message" });

  // A chat with a file, a safety threshold and tools.
  await chat.limitAnswers(40);
  const name = `tide-notes-${Date.now()}.txt`;
  await dropFiles(page.getByTestId("drop-zone-new"), [
    { name, mimeType: "text/plain", bytes: new TextEncoder().encode("High tide at 06:12.") },
  ]);
  await expect(attachmentCard(page, name)).toHaveAttribute("data-status", "active", {
    timeout: 30_000,
  });
  await chat.selectSetting("Dangerous content", "BLOCK_ONLY_HIGH");
  await chat.settings.getByRole("checkbox", { name: /^Code execution/ }).check();
  await chat
    .setting("Function declarations (JSON array)")
    .fill(JSON.stringify([{ name: "tide_at", description: "Tide height at a time" }]));
  await chat.prompt.fill("When is high tide?");

  await page.getByRole("button", { name: "Get code for the next message" }).click();
  const rest = restBody(await snippetOf(dialog, "REST JSON")) as {
    contents: { parts: { fileData?: { fileUri: string; mimeType: string } }[] }[];
    safetySettings: unknown;
    tools: unknown;
  };
  const fileData = rest.contents.at(-1)!.parts.find((part) => part.fileData)!.fileData!;
  expect(fileData.fileUri).toMatch(/\/v1beta\/files\/[a-z0-9-]+$/);
  expect(fileData.mimeType).toBe("text/plain");
  expect(rest.safetySettings).toEqual([
    { category: "HARM_CATEGORY_DANGEROUS_CONTENT", threshold: "BLOCK_ONLY_HIGH" },
  ]);
  expect(rest.tools).toEqual([
    { codeExecution: {} },
    { functionDeclarations: [{ name: "tide_at", description: "Tide height at a time" }] },
  ]);
  // Every language names the file by its URI and sends the same tools and safety; its Copy
  // button puts exactly the snippet shown on the clipboard.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  for (const tab of ["curl", "Python", "JavaScript"]) {
    const snippet = await snippetOf(dialog, tab);
    expect(snippet, tab).toContain(fileData.fileUri);
    expect(snippet, tab).toContain("BLOCK_ONLY_HIGH");
    expect(snippet, tab).toContain("tide_at");
    expect(snippet, tab).toContain("GEMINI_API_KEY");
    expect(snippet, tab).not.toContain(DEVELOPMENT_KEY);
    await dialog.getByRole("button", { name: `Copy ${tab} code` }).click();
    await expect(dialog.getByRole("button", { name: `Copy ${tab} code` })).toHaveText("Copied");
    expect((await page.evaluate(() => navigator.clipboard.readText())).trim(), tab).toBe(
      snippet.trim(),
    );
  }
  await dialog.getByRole("button", { name: "Close" }).click();
  // What the studio's server sends is that request (it names the file `files/{id}`, the
  // canonical form of the same reference: compared once both are read as the server reads them).
  const sent = chat.nextTurnRequest();
  await chat.prompt.press("Enter");
  expect(parseGenerateContentRequest(await sent, FLASH)).toEqual(
    parseGenerateContentRequest(rest, FLASH),
  );
  await chat.waitForAnswerDone();

  // A chat on a cached content (in a fresh page: a new chat starts from the last settings,
  // and tools cannot go beside a cache): the snippet names the cache.
  const cachePage = await browser.newPage();
  const cacheChat = new ChatPage(cachePage);
  await cacheChat.open();
  const cacheDialog = cachePage.getByRole("dialog", { name: "Code for the next message" });
  const created = await cachePage.evaluate(async () => {
    const response = await fetch("/v1beta/cachedContents", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        model: "models/gemini-2.5-flash",
        contents: [{ role: "user", parts: [{ text: "Tide tables by the door. ".repeat(300) }] }],
        ttl: "600s",
      }),
    });
    return (await response.json()) as { name: string };
  });
  await cachePage.goto(`/chat?cache=${encodeURIComponent(created.name)}`);
  await expect(cachePage.getByRole("group", { name: "Attached cache" })).toBeVisible();
  await cacheChat.prompt.fill("Where are the tide tables?");
  await cachePage.getByRole("button", { name: "Get code for the next message" }).click();
  const cached = restBody(await snippetOf(cacheDialog, "REST JSON")) as Record<string, unknown>;
  expect(cached.cachedContent).toBe(created.name);
  for (const tab of ["curl", "Python", "JavaScript"])
    expect(await snippetOf(cacheDialog, tab), tab).toContain(created.name);
  await cachePage.close();
});

test("get code with a key made in the dialog: a chat with a file runs as it is, and the key is shown only then", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(16);
  const name = `harbour-${Date.now()}.txt`;
  await dropFiles(page.getByTestId("drop-zone-new"), [
    { name, mimeType: "text/plain", bytes: new TextEncoder().encode("The harbour opens at dawn.") },
  ]);
  await expect(attachmentCard(page, name)).toHaveAttribute("data-status", "active", {
    timeout: 30_000,
  });
  await chat.prompt.fill("When does the harbour open?");
  await page.getByRole("button", { name: "Get code for the next message" }).click();
  const dialog = page.getByRole("dialog", { name: "Code for the next message" });
  await dialog.getByRole("button", { name: "Create a key for this code" }).click();
  await expect(dialog.getByText(/The snippets hold your new key/)).toBeVisible();
  const curl = await snippetOf(dialog, "curl");
  const secret = /export GEMINI_API_KEY='(gsk_[A-Za-z0-9_-]{43})'/.exec(curl)?.[1];
  expect(secret, curl).toBeDefined();
  await expectNoSeriousViolations(page, "dialog[open]");
  // The key sees the browser's file: the snippet runs as it is (it sets the key itself).
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-get-code-key-"));
  fs.writeFileSync(path.join(directory, "request.sh"), curl);
  const result = await run("bash", [path.join(directory, "request.sh")], { GEMINI_API_KEY: "" });
  expect(result.code, result.stdout + result.stderr).toBe(0);
  expect(result.stdout).toContain('"candidates"');
  expect(result.stdout).not.toContain("PERMISSION_DENIED");
  // Closed and opened again, the dialog names the key but no longer holds it.
  await dialog.getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: "Get code for the next message" }).click();
  const picker = dialog.getByLabel("Studio key");
  const made = await picker
    .locator("option", { hasText: secret!.slice(0, 10) })
    .getAttribute("value");
  await picker.selectOption(made!);
  const again = await snippetOf(dialog, "curl");
  expect(again).toContain(`(${secret!.slice(0, 10)}…)`);
  expect(again).not.toContain(secret!);
  fs.rmSync(directory, { recursive: true, force: true });
});
