import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { makePng } from "@/lib/testing/media-fixtures";
import { CachesPage } from "./pages/caches-page";
import { ChatPage } from "./pages/chat-page";
import { attachmentCard, dropFiles } from "./pages/files-page";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";

/**
 * What a week of daily use found: the safety card's retry, the inspector after a reload and
 * elsewhere, search hits, settings for new chats, long pastes, files a model cannot take, a
 * failed send, the counter while the first message is typed, and the Caches page.
 */

/** Calls a studio route with the page's session. */
async function callJson(
  page: Page,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  return page.evaluate(
    async ({ path, init }) => {
      const response = await fetch(path, {
        method: init.method ?? "GET",
        headers: init.body !== undefined ? { "Content-Type": "application/json" } : undefined,
        body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
      });
      return { status: response.status, json: await response.json() };
    },
    { path, init },
  );
}

/** Pastes text into the prompt box as a person's Ctrl+V would deliver it. */
async function pasteText(chat: ChatPage, characters: number): Promise<void> {
  await chat.prompt.evaluate((box, length) => {
    const line = "The tide comes in over the warm sand and goes out again. ";
    const transfer = new DataTransfer();
    transfer.setData("text/plain", line.repeat(Math.ceil(length / line.length)).slice(0, length));
    box.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, characters);
}

test("a prompt two categories block names both, and one retry loosens both", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.selectSetting("Harassment", "BLOCK_LOW_AND_ABOVE");
  await chat.selectSetting("Dangerous content", "BLOCK_LOW_AND_ABOVE");
  await chat.limitAnswers(30);
  await chat.send(
    `You worthless idiot, I will explain how to build a bomb and kill you ${Date.now()}`,
  );
  await chat.waitForAnswerDone();
  const card = chat.lastAnswer().getByRole("region", { name: "Blocked prompt" });
  const categories = card.getByRole("list", { name: "Blocking categories" }).getByRole("listitem");
  await expect(categories).toHaveCount(2);
  await expect(categories.nth(0)).toContainText("Harassment");
  await expect(categories.nth(1)).toContainText("Dangerous content");
  await card
    .getByRole("button", { name: /^Loosen Harassment to .+, Dangerous content to .+ and retry$/ })
    .click();
  await chat.waitForAnswerDone();
  await expect(chat.lastAnswer().getByRole("region", { name: "Blocked prompt" })).toHaveCount(0);
  expect((await chat.answerText().innerText()).trim().length).toBeGreaterThan(0);
});

test("the inspector shows an answer's raw exchange after a reload and in another browser", async ({
  page,
  browser,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(60);
  await chat.send(`Repeat after me: ${"Gulls circle the harbour at dawn. ".repeat(12)}`);
  await chat.waitForAnswerDone();
  const id = chat.conversationId()!;

  const inspect = async (view: ChatPage) => {
    await view.lastAnswer().getByRole("button", { name: "Inspect this answer" }).click();
    const dialog = view.page.getByRole("dialog", { name: "Inspect this answer" });
    await expect(dialog.locator('[data-inspector-fact="HTTP status"]')).toHaveText("200");
    await dialog.getByRole("tab", { name: "Events" }).click();
    expect(await dialog.locator("[data-inspector-event]").count()).toBeGreaterThan(3);
    await dialog.getByRole("tab", { name: "Request" }).click();
    await expect(dialog.locator("[data-inspector-request]")).toContainText("Gulls circle");
  };
  await page.reload();
  await chat.waitForAnswerDone();
  await inspect(chat);

  const elsewhere = await browser.newContext();
  try {
    const other = new ChatPage(await elsewhere.newPage());
    await other.open(id);
    await other.waitForAnswerDone();
    await inspect(other);
  } finally {
    await elsewhere.close();
  }
});

test("a search hit opens the chat at the matching message, outlined, its words marked", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(400);
  const word = `quokkaharbour${Date.now()}`;
  await chat.send(`Tell me about the ${word} lighthouse`);
  await chat.waitForAnswerDone();
  for (let turn = 0; turn < 3; turn++) {
    await chat.send(
      `Repeat after me: ${"Waves fold over the reef and the tide goes out. ".repeat(40)}`,
    );
    await chat.waitForAnswerDone();
  }
  const id = chat.conversationId()!;
  await chat.open();
  const search = page.getByRole("searchbox", { name: "Search conversations" });
  await search.fill(word);
  // The conversation's own link has the same name until the search answers: the hit is the
  // link that names the message.
  const result = chat.sidebar
    .locator(`a[href^="/chat/${id}?message="]`)
    .filter({ hasText: new RegExp(`^Tell me about the ${word}`) });
  await result.click();
  await expect(page).toHaveURL(new RegExp(`/chat/${id}\\?message=`));
  const hit = chat.userMessages.first();
  await expect(hit).toHaveAttribute("data-search-hit", "");
  await expect(hit).toBeInViewport();
  await expect(chat.userMessages.last()).not.toBeInViewport();
  expect(
    await page.evaluate(
      () =>
        (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get("search-hit")
          ?.size ?? 0,
    ),
  ).toBeGreaterThan(0);
});

test("a new chat starts from the settings used last, or from the preset chosen for new chats", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // A studio of its own: a preset chosen for new chats is the whole workspace's, and on the
  // shared server every other spec's new chats would start from it while it exists.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-e2e-presets-"));
  const server: OwnServer = await startOwnServer({ dataDir });
  const context = await browser.newContext({ baseURL: server.baseUrl });
  try {
    const page = await context.newPage();
    const chat = new ChatPage(page);
    await chat.open();
    await chat.fillSetting("Temperature", "0.35");
    await chat.limitAnswers(20);
    await chat.send(`Settings to keep ${Date.now()}`);
    await chat.waitForAnswerDone();
    // After a reload a new chat still starts from them.
    await chat.open();
    await chat.openSettings();
    await expect(chat.setting("Temperature")).toHaveValue("0.35");

    const name = `Low media ${Date.now()}`;
    await chat.selectSetting("Media resolution", "MEDIA_RESOLUTION_LOW");
    const save = chat.settings.getByRole("group", { name: "Save as preset" });
    await save.getByLabel("Save these settings as").fill(name);
    await save.getByLabel("Use it for new chats").check();
    await save.getByRole("button", { name: "Save preset" }).click();
    await expect(chat.setting("Preset")).toHaveValue(name);
    await chat.fillSetting("Temperature", "1.5");
    await chat.selectSetting("Media resolution", "");
    // Another browser (or this one after its memory is gone) starts from the preset.
    await page.evaluate(() => localStorage.clear());
    await chat.open();
    await chat.openSettings();
    await expect(chat.setting("Media resolution")).toHaveValue("MEDIA_RESOLUTION_LOW");
    await expect(chat.setting("Temperature")).toHaveValue("0.35");
  } finally {
    await context.close();
    await server.stop("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("the presets and model facts routes answer bad input with the service's error body", async ({
  page,
  playwright,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  const badBody = await callJson(page, "/api/presets/Broken", {
    method: "PUT",
    body: { settings: { model: "" }, isDefault: "yes" },
  });
  expect(badBody.status).toBe(400);
  expect(badBody.json).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
  expect(JSON.stringify(badBody.json)).toContain("isDefault");
  const longName = await callJson(page, `/api/presets/${"n".repeat(81)}`, {
    method: "PUT",
    body: { settings: { model: "models/gemini-2.5-flash" } },
  });
  expect(longName.status).toBe(400);
  expect(JSON.stringify(longName.json)).toContain("at most 80 characters");
  const missing = await callJson(page, "/api/presets/Nothing%20here", { method: "DELETE" });
  expect(missing).toMatchObject({ status: 404, json: { error: { status: "NOT_FOUND" } } });
  // Without a session or key: refused, as the API refuses an unregistered caller.
  const anonymous = await playwright.request.newContext({ baseURL: page.url() });
  const refused = await anonymous.get("/api/models");
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.status).toBe("PERMISSION_DENIED");
  await anonymous.dispose();
});

test("a long paste lands as an attachment to open, typing stays in the box, and it is sent", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(20);
  await pasteText(chat, 2_000_000);
  const card = attachmentCard(page, "Pasted text");
  await expect(card).toBeVisible();
  await expect(chat.prompt).toHaveValue("");
  await card.getByRole("button", { name: "Open Pasted text" }).click();
  const viewer = page.getByRole("dialog", { name: "Pasted text" });
  await expect(viewer.locator("[data-pasted-text-length]")).toContainText("2,000,000 characters");
  await viewer.getByRole("button", { name: "Close" }).click();
  await chat.prompt.pressSequentially("Summarise it");
  await expect(chat.prompt).toHaveValue("Summarise it");
  await card.getByRole("button", { name: "Remove Pasted text" }).click();

  await pasteText(chat, 60_000);
  await expect(attachmentCard(page, "Pasted text")).toBeVisible();
  await chat.prompt.press("Enter");
  await chat.waitForAnswerDone();
  const sent = chat.userMessages.last();
  await expect(sent).toContainText("Summarise it");
  await expect(sent.getByRole("button", { name: "Open Pasted text" })).toBeVisible();
  await expect(sent).toContainText("60,000 characters");
});

test("a file the model cannot take is refused before sending, naming what it takes", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await page
    .getByRole("combobox", { name: "Model" })
    .first()
    .selectOption("models/gemini-2.5-flash-preview-tts");
  await dropFiles(page.getByTestId("drop-zone-new"), [
    { name: "harbour.png", mimeType: "image/png", bytes: makePng(8, 8) },
  ]);
  await expect(page.getByRole("alert").filter({ hasText: "harbour.png" })).toContainText(
    "Gemini 2.5 Flash Preview TTS takes text: “harbour.png” (image/png) were not attached.",
  );
  await expect(attachmentCard(page, "harbour.png")).toHaveCount(0);

  // Attached for a model that takes it, then the model changed: sending waits, and says why.
  await page
    .getByRole("combobox", { name: "Model" })
    .first()
    .selectOption("models/gemini-2.5-flash");
  await dropFiles(page.getByTestId("drop-zone-new"), [
    { name: "harbour.png", mimeType: "image/png", bytes: makePng(8, 8) },
  ]);
  await expect(attachmentCard(page, "harbour.png")).toHaveAttribute("data-status", "active");
  await page
    .getByRole("combobox", { name: "Model" })
    .first()
    .selectOption("models/gemini-2.5-flash-preview-tts");
  await chat.prompt.fill("Read this aloud");
  await expect(page.locator("#send-blocked-reason")).toContainText(
    "“harbour.png” (image/png) cannot be sent to it",
  );
  await expect(chat.sendButton).toBeDisabled();
});

test("a send that never reaches the server puts the prompt back in the box, marked in the chat", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const chat = new ChatPage(page);
  await chat.open();
  await page.route(/\/api\/conversations\/[^/]+\/turns$/, (route) => route.abort("failed"));
  const text = `Nothing I type is lost ${Date.now()}`;
  await chat.send(text);
  await expect(chat.lastAnswer().getByRole("alert")).toContainText("The prompt was not sent.", {
    timeout: 30_000,
  });
  await expect(chat.prompt).toHaveValue(text);
  await expect(chat.userMessages.last()).toContainText(text);
});

test("the counter shows a count while the first message is still being typed", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const typing = chat.prompt.pressSequentially("How far does the tide go out at the harbour?", {
    delay: 120,
  });
  let done = false;
  void typing.then(() => (done = true));
  await expect(page.locator("[data-total-tokens]")).toBeVisible({ timeout: 5000 });
  expect(done).toBe(false);
  await typing;
});

test.describe("the Caches page", () => {
  /** A conversation long enough to cache (1,024 tokens), imported rather than generated. */
  async function longConversation(page: Page, title: string): Promise<string> {
    const words = "Harbour lights guide the ships home across the dark water tonight. ".repeat(220);
    const stamp = Date.now();
    const result = await callJson(page, "/api/conversations/import", {
      method: "POST",
      body: {
        format: "genstudio.conversations",
        version: 1,
        conversations: [
          {
            title,
            createdAt: new Date().toISOString(),
            updatedAt: new Date().toISOString(),
            settings: {
              model: "models/gemini-2.5-flash",
              systemInstruction: "",
              generationConfig: {},
              safetySettings: [],
            },
            messages: [
              {
                id: `u${stamp}`,
                parentId: null,
                role: "user",
                content: { role: "user", parts: [{ text: `Repeat: ${words}` }] },
              },
              {
                id: `a${stamp}`,
                parentId: `u${stamp}`,
                role: "model",
                content: { role: "model", parts: [{ text: words }] },
              },
            ],
          },
        ],
      },
    });
    return (result.json.imported as { id: string }[])[0]!.id;
  }

  test("creating starts the form afresh, the banner follows an extend, a long name stays in its column", async ({
    page,
  }) => {
    const caches = new CachesPage(page);
    await caches.open();
    const conversationId = await longConversation(page, `Lights ${Date.now()}`);
    await caches.open(`?conversation=${conversationId}`);
    const displayName = `${"harbour-lights-".repeat(7)}${Date.now()}`;
    const form = caches.form;
    await form.getByLabel("Display name", { exact: true }).fill(displayName);
    await form.getByLabel("System instruction").fill("Answer as a harbour master.");
    await expect(caches.size).not.toContainText("updating");
    await caches.createButton.click();
    const banner = page.getByRole("status").filter({ hasText: "Created cachedContents/" });
    await expect(banner).toBeVisible();

    await expect(form.getByLabel("Display name", { exact: true })).toHaveValue("");
    await expect(form.getByLabel("System instruction")).toHaveValue("");
    await expect(form.getByLabel("Conversation", { exact: true })).toHaveValue("");
    await expect(form.getByLabel("Model", { exact: true })).toHaveValue("models/gemini-2.5-flash");

    const row = caches.row(displayName);
    const nameBox = (await row.getByRole("rowheader").locator("span").first().boundingBox())!;
    const modelBox = (await row.getByRole("cell").first().boundingBox())!;
    expect(nameBox.x + nameBox.width).toBeLessThanOrEqual(modelBox.x + 1);

    const before = await banner.textContent();
    const expiryBefore = await row.locator("time").getAttribute("datetime");
    await row.getByRole("button", { name: `Extend: ${displayName}` }).click();
    const dialog = page.getByRole("dialog", { name: `Change the expiry of ${displayName}` });
    await dialog.getByRole("button", { name: "Extend by 1 day" }).click();
    await expect(dialog).toBeHidden();
    await expect(banner).not.toHaveText(before!);
    // The banner follows the extend's answer; the row follows the list's refetch, which may land later.
    await expect(row.locator("time")).not.toHaveAttribute("datetime", expiryBefore!);
    const expiry = await row.locator("time").getAttribute("datetime");
    const shown = await page.evaluate(
      (time) =>
        new Date(time).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" }),
      expiry!,
    );
    await expect(banner).toContainText(shown);
  });
});
