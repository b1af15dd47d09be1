import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

/** The chat page against the local engine: streaming, stop, regenerate, edit, persistence. */

async function serverMessages(
  chat: ChatPage,
  id: string,
): Promise<
  {
    id: string;
    role: string;
    parentId: string | null;
    stopped?: boolean;
    content: { parts: { text?: string }[] };
  }[]
> {
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
  const prompt = `${ChatPage.longAnswerPrompt(600)} ${Date.now()}`;
  // The local engine sends a long answer as fast as it can, and a loaded machine's browser
  // may then read it all between two frames. The emulator spreads this prompt's answer over
  // about two seconds, so the page must show it arrive in pieces.
  const pieces = ChatPage.numberedSentences(80);
  await chat.scriptStreamedAnswer(prompt.slice(-13), pieces, 25);
  await chat.recordStreamLengths();
  await chat.send(prompt);
  await expect(page).toHaveURL(/\/chat\/[A-Za-z0-9_-]+$/);
  await chat.waitForAnswerDone();

  const lengths = await chat.recordedStreamLengths();
  // Compared as textContent: blocks scrolled out of view (content-visibility) have no layout,
  // so their innerText line breaks depend on the scroll position.
  const finalText = ((await chat.answerText().textContent()) ?? "").trim();
  expect(finalText).toBe(pieces.join("").trim());
  // Several distinct intermediate states before the final text, growing.
  const finalLength = await chat
    .answerText()
    .evaluate((element) => element.textContent?.length ?? 0);
  const intermediate = lengths.filter((length) => length > 0 && length < finalLength);
  expect(new Set(intermediate).size).toBeGreaterThanOrEqual(3);
  for (let index = 1; index < intermediate.length; index++)
    expect(intermediate[index]).toBeGreaterThan(intermediate[index - 1]!);
  expect(lengths[lengths.length - 1]).toBe(finalLength);

  await expect(chat.lastAnswer().locator("[data-usage]")).toContainText("output");
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
  await chat.sendWithPacedAnswer();
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

  const id = chat.conversationId()!;
  // Generation stopped on the server: the stored answer is marked stopped (one that ran to its
  // end is not).
  await expect.poll(async () => (await serverMessages(chat, id))[1]?.stopped).toBe(true);
  await page.reload();
  await expect(chat.lastAnswer().locator('[data-message-status="stopped"]')).toBeVisible();
  await expect(chat.answerText()).toHaveText(partial);
});

test("the Stop button stops too", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendWithPacedAnswer();
  await expect.poll(async () => (await chat.answerText().innerText()).length).toBeGreaterThan(20);
  await chat.stopButton.click();
  await expect(chat.lastAnswer().locator('[data-message-status="stopped"]')).toBeVisible();
  await expect(chat.sendButton).toBeVisible();
});

// Regenerating used to overwrite the answer it replaced. It now adds a version.
test("regenerate adds a version of the answer; the first one stays, one click away", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(120);
  await chat.send(`Say something about gardens ${Date.now()}`);
  await chat.waitForAnswerDone();
  const firstResponse = await chat.lastAnswer().getAttribute("data-response-id");
  expect(firstResponse).toBeTruthy();
  const firstText = ((await chat.answerText().textContent()) ?? "").trim();
  await chat.lastAnswer().getByRole("button", { name: "Regenerate" }).click();
  await chat.waitForAnswerDone();
  await expect(chat.answers).toHaveCount(1);
  // A new generation (the text itself may repeat: the local model can echo a corpus answer).
  await expect(chat.lastAnswer()).not.toHaveAttribute("data-response-id", firstResponse!);
  await expect(chat.versionPosition(chat.lastAnswer())).toHaveText("2 / 2");

  await chat.lastAnswer().getByRole("button", { name: "Previous version" }).click();
  await expect(chat.lastAnswer()).toHaveAttribute("data-response-id", firstResponse!);
  await expect(chat.answerText()).toHaveText(firstText);
  await expect(chat.versionPosition(chat.lastAnswer())).toHaveText("1 / 2");

  const id = chat.conversationId()!;
  await expect.poll(async () => (await serverMessages(chat, id)).length).toBe(3);
  const messages = await serverMessages(chat, id);
  expect(messages.map((message) => [message.role, message.parentId])).toEqual([
    ["user", null],
    ["model", messages[0]!.id],
    ["model", messages[0]!.id],
  ]);
  // The version chosen is the one a reload shows.
  await page.reload();
  await expect(chat.lastAnswer()).toHaveAttribute("data-response-id", firstResponse!);
  await expect(chat.versionPosition(chat.lastAnswer())).toHaveText("1 / 2");
});

// "Save and send" used to delete the edited prompt and every message after it.
test("edit and resend adds a version of the prompt; the old version keeps its whole branch", async ({
  page,
}) => {
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
  await expect(chat.versionPosition(chat.userMessages.first())).toHaveText("2 / 2");

  const id = chat.conversationId()!;
  // Nothing was deleted: both branches are stored.
  await expect.poll(async () => (await serverMessages(chat, id)).length).toBe(6);

  await chat.userMessages.first().getByRole("button", { name: "Previous version" }).click();
  await expect(chat.userMessages).toHaveCount(2);
  await expect(chat.userMessages.nth(0)).toContainText(`First question ${stamp}`);
  await expect(chat.userMessages.nth(1)).toContainText(`Second question ${stamp}`);
  await expect(chat.answers).toHaveCount(2);
  await page.reload();
  await expect(chat.userMessages).toHaveCount(2);
  await expect(chat.versionPosition(chat.userMessages.first())).toHaveText("1 / 2");
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

test("a new chat becomes its conversation at Enter, and New chat at once after it opens an empty one", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  // The turn's answer is held back: what the page shows until then is its own doing.
  let releaseTurn!: () => void;
  const turnHeld = new Promise<void>((resolve) => (releaseTurn = resolve));
  await page.route(/\/api\/conversations\/[^/]+\/turns$/, async (route) => {
    await turnHeld;
    await route.continue();
  });
  const prompt = `A conversation of its own ${Date.now()}`;
  await chat.send(prompt);
  await expect(page).toHaveURL(/\/chat\/[A-Za-z0-9_-]+$/);
  const id = chat.conversationId()!;
  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.lastAnswer()).toHaveAttribute("aria-busy", "true");

  // Straight to a new chat, the first turn still on its way.
  await page.keyboard.press("Control+Shift+O");
  await expect(page).toHaveURL(/\/chat$/);
  await expect(chat.userMessages).toHaveCount(0);
  await expect(page.getByText("Send a message to start a conversation.")).toBeVisible();
  releaseTurn();

  // The first conversation was kept, and is there to go back to.
  await chat.sidebar.locator(`a[href="/chat/${id}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/chat/${id}$`));
  await expect(chat.userMessages.first()).toContainText(prompt);
  await chat.waitForAnswerDone();
  await expect(chat.answerText()).not.toBeEmpty();
});

// Search matched titles only; a delete was final. Search now covers every message
// and shows the matching passage; a delete can be undone.
test("conversations can be searched by any message, renamed, and deleted with undo", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(20);
  const stamp = Date.now();
  await chat.send(`Zebra facts ${stamp}`);
  await chat.waitForAnswerDone();
  const id = chat.conversationId()!;

  const search = chat.sidebar.getByRole("searchbox", { name: "Search conversations" });
  await search.fill(`zebra facts ${stamp}`);
  const links = chat.sidebar
    .getByRole("navigation", { name: "Saved conversations" })
    .getByRole("link");
  await expect(links).toHaveCount(1);
  await expect(chat.sidebar.locator("[data-search-match] mark").first()).toHaveText(/^zebra$/i);
  await chat.sidebar.getByRole("button", { name: `Rename Zebra facts ${stamp}` }).click();
  const rename = chat.sidebar.getByRole("textbox", { name: /New title/ });
  await rename.fill(`Striped horses ${stamp}`);
  await rename.press("Enter");
  await search.fill(`striped horses ${stamp}`);
  await expect(links).toHaveText([`Striped horses ${stamp}`]);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Striped horses ${stamp}`);

  await chat.sidebar.getByRole("button", { name: `Delete Striped horses ${stamp}` }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(links).toHaveCount(0);
  const status = () =>
    page.evaluate(
      async (conversationId) => (await fetch(`/api/conversations/${conversationId}`)).status,
      id,
    );
  expect(await status()).toBe(404);
  const undo = chat.sidebar.getByRole("status").filter({ hasText: "Deleted" });
  await undo.getByRole("button", { name: "Undo" }).click();
  await expect(page).toHaveURL(new RegExp(`/chat/${id}$`));
  await expect(links).toHaveText([`Striped horses ${stamp}`]);
  await expect(chat.userMessages.first()).toContainText(`Zebra facts ${stamp}`);
  expect(await status()).toBe(200);
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
