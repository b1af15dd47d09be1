import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";

/**
 * Local engine: versions instead of truncation, answers that the server finishes
 * and any page joins, one send making one message, and several instances sharing a database.
 */

interface ServerMessage {
  id: string;
  role: string;
  parentId: string | null;
  streaming?: boolean;
  stopped?: boolean;
  interrupted?: boolean;
  content: { parts: { text?: string }[] };
  candidates?: { finishReason?: string }[];
  usageMetadata?: { candidatesTokenCount?: number };
}

async function serverConversation(
  page: Page,
  id: string,
): Promise<{ title: string; messages: ServerMessage[] }> {
  return page.evaluate(async (conversationId) => {
    const response = await fetch(`/api/conversations/${conversationId}`);
    return response.json();
  }, id);
}

function textOf(message: ServerMessage | undefined): string {
  return (message?.content.parts ?? []).map((part) => part.text ?? "").join("");
}

/** About 78,000 tokens asked, 65,536 allowed: generation runs for seconds on any machine. */
const LONG_PROMPT = ChatPage.longAnswerPrompt(6000);

test("a new chat's first message appears at once, Send shows it is pending, and a repeated send makes one conversation", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(40);
  // The first send's answer is lost on the way back (the server stored the turn and generated
  // its answer; the connection broke). The page sends the same turn again, with the same ids.
  let sends = 0;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/conversations\/[^/]+\/turns$/, async (route) => {
    sends += 1;
    if (sends === 1) {
      await route.fetch();
      await held;
      await route.abort("connectionreset");
    } else await route.continue();
  });
  const prompt = `Tell me about lighthouses ${Date.now()}`;
  await chat.prompt.fill(prompt);
  await chat.prompt.press("Enter");
  // Before the server has answered anything: the message is shown, the box is empty, Send is pending.
  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.userMessages.first()).toContainText(prompt);
  await expect(chat.prompt).toHaveValue("");
  const pending = page.getByRole("button", { name: "Sending…" });
  await expect(pending).toBeDisabled();
  await expect(page).toHaveURL(/\/chat\/[A-Za-z0-9_-]+$/);
  await chat.prompt.press("Enter");
  // Leaving now would lose the prompt: the page asks first.
  const dialog = page.waitForEvent("dialog");
  void page.evaluate(() => window.location.reload()).catch(() => undefined);
  const asked = await dialog;
  expect(asked.type()).toBe("beforeunload");
  await asked.dismiss();
  release();
  await chat.waitForAnswerDone();
  expect(sends).toBe(2);
  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.answers).toHaveCount(1);
  const id = chat.conversationId()!;
  const stored = await serverConversation(page, id);
  expect(stored.messages.map((message) => message.role)).toEqual(["user", "model"]);
  expect(textOf(stored.messages[1]).length).toBeGreaterThan(0);
  // Other specs create conversations on this server meanwhile: count the ones with this title.
  const titled = await page.evaluate(
    async (title) =>
      (await (await fetch("/api/conversations")).json()).conversations.filter(
        (conversation: { title: string }) => conversation.title === title,
      ).length,
    prompt,
  );
  expect(titled).toBe(1);
  // The title is the prompt's words.
  expect(stored.title).toBe(prompt);
});

test("a reload mid-stream joins the live answer and shows the rest as it arrives", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  const pieces = await chat.sendWithPacedAnswer(400, 40);
  await expect.poll(async () => (await chat.answerText().innerText()).length).toBeGreaterThan(100);
  const id = chat.conversationId()!;
  await page.reload();
  const answer = chat.lastAnswer();
  await expect(answer).toHaveAttribute("aria-busy", "true");
  const first = ((await chat.answerText(answer).textContent()) ?? "").length;
  await expect
    .poll(async () => ((await chat.answerText(answer).textContent()) ?? "").length)
    .toBeGreaterThan(first + 1000);
  await chat.waitForAnswerDone(answer);
  const stored = (await serverConversation(page, id)).messages[1]!;
  expect(stored.streaming).toBeUndefined();
  expect(stored.candidates?.[0]?.finishReason).toBe("STOP");
  expect(textOf(stored)).toBe(pieces.join(""));
  // Every piece once, in order: what arrived before the reload and what came after it meet.
  // Compared without white space: the page shows a paragraph this long cut at sentence ends.
  const shown = (await chat.answerText(answer).textContent()) ?? "";
  expect(shown.replace(/\s/g, "")).toBe(pieces.join("").replace(/\s/g, ""));
});

test("the server finishes an answer whose page went away", async ({ page, browser }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(20_000);
  await chat.send(ChatPage.longAnswerPrompt(2000));
  await expect.poll(async () => (await chat.answerText().innerText()).length).toBeGreaterThan(20);
  const id = chat.conversationId()!;
  await page.close();

  const other = await browser.newPage();
  const otherChat = new ChatPage(other);
  await otherChat.open(id);
  await otherChat.waitForAnswerDone();
  await expect(otherChat.lastAnswer().locator("[data-usage]")).toContainText("output 20,000");
  const stored = (await serverConversation(other, id)).messages[1]!;
  expect(stored.usageMetadata?.candidatesTokenCount).toBe(20_000);
  expect(stored.stopped).toBeUndefined();
  await other.close();
});

test("versions switch from the keyboard, and a reload shows the version chosen", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(30);
  const stamp = Date.now();
  await chat.send(`Question about rivers ${stamp}`);
  await chat.waitForAnswerDone();
  await chat.send(`Follow-up about deltas ${stamp}`);
  await chat.waitForAnswerDone();
  const first = chat.userMessages.first();
  await first.getByRole("button", { name: "Edit message" }).click();
  await page
    .getByRole("textbox", { name: "Edit your message" })
    .fill(`Question about lakes ${stamp}`);
  await page.getByRole("button", { name: "Save and send" }).click();
  await chat.waitForAnswerDone();
  await expect(chat.userMessages).toHaveCount(1);

  // Tab to the version control and switch with Enter; focus stays on a version control.
  const previous = chat.userMessages.first().getByRole("button", { name: "Previous version" });
  await previous.focus();
  await expect(previous).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(chat.userMessages).toHaveCount(2);
  await expect(chat.userMessages.nth(1)).toContainText(`Follow-up about deltas ${stamp}`);
  const next = chat.userMessages.first().getByRole("button", { name: "Next version" });
  await expect(next).toBeFocused();
  await expect(chat.versionPosition(chat.userMessages.first())).toHaveText("1 / 2");
  await page.keyboard.press("Enter");
  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.userMessages.first()).toContainText(`Question about lakes ${stamp}`);
  // At the last version Next is disabled: focus is on Previous, and Enter goes back.
  await expect(
    chat.userMessages.first().getByRole("button", { name: "Previous version" }),
  ).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(chat.userMessages).toHaveCount(2);
  await page.reload();
  await expect(chat.userMessages).toHaveCount(2);
  await expect(chat.userMessages.first()).toContainText(`Question about rivers ${stamp}`);
});

test("two tabs editing the same message keep both branches", async ({ page, browser }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(20);
  const stamp = Date.now();
  await chat.send(`Original question ${stamp}`);
  await chat.waitForAnswerDone();
  const id = chat.conversationId()!;
  const otherPage = await browser.newPage();
  const other = new ChatPage(otherPage);
  await other.open(id);
  await expect(other.userMessages).toHaveCount(1);

  const edit = async (tab: ChatPage, text: string) => {
    await tab.userMessages.first().getByRole("button", { name: "Edit message" }).click();
    await tab.page.getByRole("textbox", { name: "Edit your message" }).fill(text);
  };
  await edit(chat, `Edit from tab one ${stamp}`);
  await edit(other, `Edit from tab two ${stamp}`);
  await Promise.all([
    page.getByRole("button", { name: "Save and send" }).click(),
    otherPage.getByRole("button", { name: "Save and send" }).click(),
  ]);
  await chat.waitForAnswerDone();
  await other.waitForAnswerDone();
  const stored = await serverConversation(page, id);
  const firsts = stored.messages.filter((message) => message.parentId === null).map(textOf);
  expect(firsts.sort()).toEqual(
    [
      `Edit from tab one ${stamp}`,
      `Edit from tab two ${stamp}`,
      `Original question ${stamp}`,
    ].sort(),
  );
  expect(stored.messages).toHaveLength(6);
  await page.reload();
  await expect(chat.versionPosition(chat.userMessages.first())).toHaveText("3 / 3");
  await otherPage.close();
});

test("an answer whose server died mid-stream is marked interrupted with its partial text, and Regenerate asks again", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-e2e-interrupted-"));
  // At 1,000 tokens a second the 65,536-token answer is still being written when the server dies.
  const env = { STUDIO_LOCAL_OUTPUT_TOKENS_PER_SECOND: "1000" };
  let server: OwnServer | undefined = await startOwnServer({ dataDir, env });
  const context = await browser.newContext({ baseURL: server.baseUrl });
  try {
    const page = await context.newPage();
    const chat = new ChatPage(page);
    await chat.open();
    await chat.limitAnswers(65_536);
    await chat.send(LONG_PROMPT);
    await expect(page).toHaveURL(/\/chat\/[A-Za-z0-9_-]+$/);
    const id = chat.conversationId()!;
    // Wait until some progress is on disk (written every 16 KiB or 8 s), then kill the server.
    await expect
      .poll(
        async () => {
          // The page shows the chat's URL before the server has stored it (a 404 meanwhile).
          const stored: { messages?: ServerMessage[] } = await serverConversation(page, id);
          return textOf(stored.messages?.[1]).length;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    await server.stop("SIGKILL");
    server = await startOwnServer({ dataDir, port: server.port, env });
    await page.goto(`/chat/${id}`);
    const answer = chat.lastAnswer();
    // Its lease runs out within seconds of the crash; the page then shows it interrupted.
    await expect(answer.locator('[data-message-status="interrupted"]')).toBeVisible({
      timeout: 60_000,
    });
    await expect(answer).not.toHaveAttribute("aria-busy", "true");
    const partial = ((await chat.answerText(answer).textContent()) ?? "").trim();
    expect(partial.length).toBeGreaterThan(0);
    const stored = (await serverConversation(page, id)).messages[1]!;
    expect(stored.interrupted).toBe(true);
    expect(textOf(stored).trim().length).toBeGreaterThan(0);

    await chat.limitAnswers(20);
    await answer.getByRole("button", { name: "Regenerate" }).click();
    await chat.waitForAnswerDone();
    await expect(chat.versionPosition(chat.lastAnswer())).toHaveText("2 / 2");
    await expect(chat.lastAnswer().locator('[data-message-status="interrupted"]')).toHaveCount(0);
  } finally {
    await context.close();
    await server?.stop("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
