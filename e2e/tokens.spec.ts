import { expect, test, type Page } from "@playwright/test";
import { makePng, wordsText } from "./fixtures/media";
import { ChatPage } from "./pages/chat-page";
import { attachmentCard, dropFiles } from "./pages/files-page";

/** The live token counter of the chat composer against the local engine's countTokens. */

function meter(page: Page) {
  return page.getByRole("meter", { name: "Input tokens of the next request" });
}

async function counted(page: Page): Promise<number> {
  return Number(await meter(page).getAttribute("aria-valuenow"));
}

/** What the API itself answers for one user turn (the counter must agree). */
async function apiCount(page: Page, model: string, parts: unknown[]): Promise<number> {
  const response = await page.request.post(`/v1beta/${model}:countTokens`, {
    data: { contents: [{ role: "user", parts }] },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { totalTokens: number }).totalTokens;
}

test("the counter follows typing (debounced) and attachments, with a breakdown per modality", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  const countRequests: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes(":countTokens")) countRequests.push(request.postData() ?? "");
  });
  await expect(page.getByTestId("token-counter")).toContainText("Type or attach something");

  const first = "Hello there, how are the rivers and the mountains today?";
  await chat.prompt.pressSequentially(first, { delay: 25 });
  const expectedFirst = await apiCount(page, "models/gemini-2.5-flash", [{ text: first }]);
  await expect.poll(() => counted(page)).toBe(expectedFirst);
  // 57 keystrokes, one count (or two when the machine is slow), never one per key.
  expect(countRequests.length).toBeGreaterThanOrEqual(1);
  expect(countRequests.length).toBeLessThanOrEqual(3);
  await expect(meter(page)).toHaveAttribute("aria-valuemax", "1048576");

  const more = " Tell me about the old copper mines by the harbor.";
  await chat.prompt.pressSequentially(more, { delay: 10 });
  await expect
    .poll(() => counted(page))
    .toBe(await apiCount(page, "models/gemini-2.5-flash", [{ text: first + more }]));
  const typed = await counted(page);

  const notes = `Notes. ${wordsText(300, 5)}`;
  await dropFiles(page.getByTestId("drop-zone-new"), [
    { name: "notes.txt", mimeType: "text/plain", bytes: Buffer.from(notes) },
    { name: "picture.png", mimeType: "image/png", bytes: makePng(40, 30) },
  ]);
  await expect(attachmentCard(page, "notes.txt")).toHaveAttribute("data-status", "active");
  await expect(attachmentCard(page, "picture.png")).toHaveAttribute("data-status", "active");
  await expect.poll(() => counted(page)).toBeGreaterThan(typed + 258 + 300);
  await expect(page.getByTestId("token-counter")).toContainText(/image 258/);
  await expect(page.getByTestId("token-counter")).toContainText(/text [\d,]+/);
});

test("over the model's input limit the counter warns, and Send asks before sending", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.selectSetting("Model", "models/gemini-2.5-flash-preview-tts");
  // The speech model answers audio only: ask for it, so the settings are valid.
  await chat.settings.getByRole("checkbox", { name: "AUDIO" }).check();
  await expect(chat.settingsButton).toHaveText("Settings");
  await chat.prompt.fill("Read this chapter aloud.");
  await dropFiles(page.getByTestId("drop-zone-new"), [
    { name: "chapter.txt", mimeType: "text/plain", bytes: Buffer.from(wordsText(9000, 9)) },
  ]);
  await expect(attachmentCard(page, "chapter.txt")).toHaveAttribute("data-status", "active");
  const warning = page.getByRole("alert").filter({ hasText: "Over the input limit" });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText("gemini-2.5-flash-preview-tts accepts 8,192");
  expect(await counted(page)).toBeGreaterThan(8192);
  await expect(meter(page)).toHaveAttribute("aria-valuemax", "8192");

  await chat.prompt.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Over the model's input limit" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("accepts 8,192");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(chat.userMessages).toHaveCount(0);

  // Removing the attachment brings the request back under the limit.
  await attachmentCard(page, "chapter.txt")
    .getByRole("button", { name: "Remove chapter.txt" })
    .click();
  await expect(warning).toHaveCount(0);
  await expect.poll(() => counted(page)).toBeLessThan(100);
});
