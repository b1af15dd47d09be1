import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { emulateNetwork } from "./support/network-conditions";

/**
 * The local engine streams the long answer (26,000 tokens, about 735 KB of events) in a second
 * or two; on a busy machine the browser could receive all of it before a stop. On a slow
 * connection (50 KB/s) the answer is still in flight for about 15 s, whatever the machine.
 */
const SLOW_CONNECTION = { downloadBytesPerSecond: 50_000 };

/** The chat page against the local engine: streaming, stop, regenerate, edit, persistence. */

async function serverMessages(
  chat: ChatPage,
  id: string,
): Promise<{ role: string; stopped?: boolean; content: { parts: { text?: string }[] } }[]> {
  return chat.page.evaluate(async (conversationId) => {
    const response = await fetch(`/api/conversations/${conversationId}`);
    return (await response.json()).messages;
  }, id);
}

test("an answer streams in growing states, is saved, and survives a reload and another browser", async ({
  page,
  browser,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  // About 4,000 tokens: long enough to arrive over many events and frames on any machine.
  await chat.limitAnswers(4000);
  await chat.recordStreamLengths();
  const prompt = `${ChatPage.longAnswerPrompt(600)} ${Date.now()}`;
  await chat.send(prompt);
  await expect(page).toHaveURL(/\/chat\/[A-Za-z0-9_-]+$/);
  await chat.waitForAnswerDone();

  const lengths = await chat.recordedStreamLengths();
  // Compared as textContent: blocks scrolled out of view (content-visibility) have no layout,
  // so their innerText line breaks depend on the scroll position.
  const finalText = ((await chat.answerText().textContent()) ?? "").trim();
  expect(finalText.length).toBeGreaterThan(20);
  // Several distinct intermediate states before the final text, growing overall (markdown
  // syntax closing, e.g. "**bold", may shorten the rendered text by a few characters).
  const finalLength = await chat
    .answerText()
    .evaluate((element) => element.textContent?.length ?? 0);
  const intermediate = lengths.filter((length) => length > 0 && length < finalLength);
  expect(new Set(intermediate).size).toBeGreaterThanOrEqual(3);
  for (let index = 1; index < intermediate.length; index++)
    expect(intermediate[index]).toBeGreaterThan(intermediate[index - 1]! - 10);
  expect(lengths[lengths.length - 1]).toBe(finalLength);

  await expect(chat.lastAnswer().locator("[data-usage]")).toContainText("output 4,000");
  await expect(chat.userMessages.last()).toContainText(prompt.slice(0, 200));
  const id = chat.conversationId()!;
  await expect(chat.sidebar.locator(`a[href="/chat/${id}"]`)).toHaveText(
    /^Repeat after me: The tide/,
  );

  await expect.poll(async () => (await serverMessages(chat, id)).length).toBe(2);
  await page.reload();
  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.userMessages.first()).toContainText(prompt.slice(0, 200));
  await expect(chat.answerText()).toHaveText(finalText);
  // A long prompt shows its beginning until expanded.
  await expect(chat.userMessages.first()).not.toContainText(prompt.slice(-60));
  await chat.userMessages
    .first()
    .getByRole("button", { name: /^Show all [\d,]+ characters$/ })
    .click();
  await expect(chat.userMessages.first()).toContainText(prompt.slice(-60));

  const otherContext = await browser.newContext();
  const otherPage = await otherContext.newPage();
  const other = new ChatPage(otherPage);
  await other.open(id);
  await expect(other.userMessages.first()).toContainText(prompt.slice(0, 200));
  await expect(other.answerText()).toHaveText(finalText);
  await otherContext.close();
});

test("Escape stops a long answer: the partial text stays, is marked stopped and is saved", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(60_000);
  await emulateNetwork(page, SLOW_CONNECTION);
  await chat.send(ChatPage.longAnswerPrompt());
  const answer = chat.lastAnswer();
  await expect(answer).toHaveAttribute("aria-busy", "true");
  await expect
    .poll(async () => (await chat.answerText(answer).innerText()).length)
    .toBeGreaterThan(50);
  await expect(chat.stopButton).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(answer).not.toHaveAttribute("aria-busy", "true");
  await expect(answer.locator('[data-message-status="stopped"]')).toBeVisible();
  const partial = ((await chat.answerText(answer).textContent()) ?? "").trim();
  expect(partial.length).toBeGreaterThan(50);
  await page.waitForTimeout(500);
  expect(((await chat.answerText(answer).textContent()) ?? "").trim()).toBe(partial);
  await expect(chat.prompt).toBeFocused();
  await emulateNetwork(page, {});

  const id = chat.conversationId()!;
  await expect.poll(async () => (await serverMessages(chat, id))[1]?.stopped).toBe(true);
  await page.reload();
  await expect(chat.lastAnswer().locator('[data-message-status="stopped"]')).toBeVisible();
  await expect(chat.answerText()).toHaveText(partial);
});

test("the Stop button stops too", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(60_000);
  await emulateNetwork(page, SLOW_CONNECTION);
  await chat.send(ChatPage.longAnswerPrompt());
  await expect.poll(async () => (await chat.answerText().innerText()).length).toBeGreaterThan(20);
  await chat.stopButton.click();
  await expect(chat.lastAnswer().locator('[data-message-status="stopped"]')).toBeVisible();
  await expect(chat.sendButton).toBeVisible();
});

test("regenerate replaces the last answer with a new one", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(120);
  await chat.send(`Say something about gardens ${Date.now()}`);
  await chat.waitForAnswerDone();
  const firstResponse = await chat.lastAnswer().getAttribute("data-response-id");
  expect(firstResponse).toBeTruthy();
  await chat.lastAnswer().getByRole("button", { name: "Regenerate" }).click();
  await chat.waitForAnswerDone();
  await expect(chat.answers).toHaveCount(1);
  // A new generation (the text itself may repeat: the local model can echo a corpus answer).
  await expect(chat.lastAnswer()).not.toHaveAttribute("data-response-id", firstResponse!);
  const second = (await chat.answerText().innerText()).trim();
  expect(second.length).toBeGreaterThan(0);
  const id = chat.conversationId()!;
  await expect
    .poll(async () => {
      const messages = await serverMessages(chat, id);
      return (
        messages.length === 2 &&
        messages[1]!.content.parts
          .map((part) => part.text ?? "")
          .join("")
          .includes(second.slice(0, 10))
      );
    })
    .toBe(true);
});

test("edit and resend replaces the prompt and everything after it", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(60);
  const stamp = Date.now();
  await chat.send(`First question ${stamp}`);
  await chat.waitForAnswerDone();
  await chat.send(`Second question ${stamp}`);
  await chat.waitForAnswerDone();
  await expect(chat.answers).toHaveCount(2);

  const firstMessage = chat.userMessages.first();
  await firstMessage.getByRole("button", { name: "Edit message" }).click();
  const editor = page.getByRole("textbox", { name: "Edit your message" });
  await expect(editor).toBeFocused();
  await editor.fill(`Edited question ${stamp}`);
  await editor.press("Enter");
  await chat.waitForAnswerDone();
  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.answers).toHaveCount(1);
  await expect(chat.userMessages.first()).toContainText(`Edited question ${stamp}`);

  const id = chat.conversationId()!;
  await expect
    .poll(async () => (await serverMessages(chat, id)).map((message) => message.role))
    .toEqual(["user", "model"]);
  await page.reload();
  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.userMessages.first()).toContainText(`Edited question ${stamp}`);
});

test("Shift+Enter adds a line and Enter sends", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(20);
  await chat.prompt.fill("line one");
  await chat.prompt.press("Shift+Enter");
  await chat.prompt.pressSequentially("line two");
  await expect(chat.prompt).toHaveValue("line one\nline two");
  await expect(chat.userMessages).toHaveCount(0);
  await chat.prompt.press("Enter");
  await expect(chat.userMessages.first()).toContainText("line one\nline two", {
    useInnerText: true,
  });
  await expect(chat.prompt).toHaveValue("");
  await chat.waitForAnswerDone();
});

test("a stream that fails midway keeps the partial text and shows the error with a retry", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(200);
  // Fault injection on the wire: the real engine's events, cut after three, then an error event.
  await page.route(/:streamGenerateContent/, async (route) => {
    const response = await route.fetch();
    const events = (await response.text())
      .split("\r\n\r\n")
      .filter((event) => event.startsWith("data:"));
    const body =
      events
        .slice(0, 3)
        .map((event) => `${event}\r\n\r\n`)
        .join("") +
      `data: ${JSON.stringify({ error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" } })}\r\n\r\n`;
    await route.fulfill({ status: 200, headers: { "content-type": "text/event-stream" }, body });
  });
  await chat.send(`Tell me about bridges ${Date.now()}`);
  await chat.waitForAnswerDone();
  const answer = chat.lastAnswer();
  await expect(answer.getByRole("alert")).toContainText("The model is overloaded");
  await expect(answer.getByRole("alert")).toContainText("503");
  expect((await chat.answerText(answer).innerText()).trim().length).toBeGreaterThan(0);

  await page.unroute(/:streamGenerateContent/);
  await answer.getByRole("button", { name: "Retry" }).click();
  await chat.waitForAnswerDone();
  await expect(chat.lastAnswer().getByRole("alert")).toHaveCount(0);
  await expect(chat.answers).toHaveCount(1);
});

test("conversations can be searched, renamed and deleted after confirmation", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(20);
  const stamp = Date.now();
  await chat.send(`Zebra facts ${stamp}`);
  await chat.waitForAnswerDone();
  const id = chat.conversationId()!;

  await chat.sidebar
    .getByRole("searchbox", { name: "Search conversations" })
    .fill(`zebra facts ${stamp}`);
  const links = chat.sidebar
    .getByRole("navigation", { name: "Saved conversations" })
    .getByRole("link");
  await expect(links).toHaveCount(1);
  await chat.sidebar.getByRole("button", { name: `Rename Zebra facts ${stamp}` }).click();
  const rename = chat.sidebar.getByRole("textbox", { name: /New title/ });
  await rename.fill(`Striped horses ${stamp}`);
  await rename.press("Enter");
  await chat.sidebar
    .getByRole("searchbox", { name: "Search conversations" })
    .fill(`striped horses ${stamp}`);
  await expect(links).toHaveText([`Striped horses ${stamp}`]);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Striped horses ${stamp}`);

  await chat.sidebar.getByRole("button", { name: `Delete Striped horses ${stamp}` }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this conversation?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(links).toHaveCount(1);
  await chat.sidebar.getByRole("button", { name: `Delete Striped horses ${stamp}` }).click();
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(links).toHaveCount(0);
  const status = await page.evaluate(
    async (conversationId) => (await fetch(`/api/conversations/${conversationId}`)).status,
    id,
  );
  expect(status).toBe(404);
});

test("at phone width the sidebar collapses behind a button", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  const chat = new ChatPage(page);
  await chat.open();
  await expect(chat.sidebar).toBeHidden();
  await page.getByRole("button", { name: "Show conversations" }).click();
  await expect(chat.sidebar).toBeVisible();
  await chat.sidebar.getByRole("button", { name: "Close conversations" }).click();
  await expect(chat.sidebar).toBeHidden();
  await expect(chat.prompt).toBeVisible();
  // Nothing of the chat page (everything under <main>) is wider than the phone.
  const overflowing = await page.evaluate(() =>
    [...document.querySelectorAll("main *")]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .map((element) => element.tagName),
  );
  expect(overflowing).toEqual([]);
});
