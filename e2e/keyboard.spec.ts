import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { expectNoSeriousViolations } from "./pages/answer-metadata";

/** Keyboard: a skip link, the chat's shortcuts and their `?` help sheet. */

test("a skip link is the first stop and moves focus to the main content", async ({ page }) => {
  // The files page (the chat page puts the focus in its message box at once).
  await page.goto("/files");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
});

test("the shortcuts do what the help sheet says", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(24);
  await chat.send("Repeat after me: keyboard first");
  await chat.waitForAnswerDone();
  await page.getByRole("button", { name: "Close settings" }).click();
  const firstId = await chat.lastAnswer().getAttribute("data-response-id");

  // ? (outside a text field) opens the help sheet listing every shortcut.
  await page.getByRole("heading", { level: 1 }).click();
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  await expect(help.getByRole("row")).toHaveCount(8);
  await expect(help).toContainText("Regenerate the last answer");
  await expectNoSeriousViolations(page, "dialog[open]");
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();
  // Typed in the message box, ? is just a character.
  await chat.prompt.focus();
  await page.keyboard.press("?");
  await expect(chat.prompt).toHaveValue("?");
  await expect(help).toBeHidden();
  await chat.prompt.fill("");

  // Mod+Shift+G regenerates the last answer.
  await page.keyboard.press("Control+Shift+G");
  await expect(chat.lastAnswer()).not.toHaveAttribute("data-response-id", firstId!);
  await chat.waitForAnswerDone();

  // Mod+, opens and closes the settings.
  await page.keyboard.press("Control+,");
  await expect(chat.settings).toBeVisible();
  await page.keyboard.press("Control+,");
  await expect(chat.settings).toBeHidden();

  // Mod+K goes to the conversation search; Shift+Esc back to the message box.
  await page.keyboard.press("Control+K");
  await expect(page.getByRole("searchbox", { name: "Search conversations" })).toBeFocused();
  await page.keyboard.press("Shift+Escape");
  await expect(chat.prompt).toBeFocused();

  // Esc stops a running answer (one the emulator paces over seconds).
  await chat.sendWithPacedAnswer();
  await expect(chat.lastAnswer()).toHaveAttribute("aria-busy", "true");
  await page.keyboard.press("Escape");
  await expect(chat.lastAnswer().locator("[data-message-status=stopped]")).toBeVisible();

  // Mod+Shift+O starts a new chat.
  const id = chat.conversationId();
  expect(id).not.toBeNull();
  await page.keyboard.press("Control+Shift+O");
  await expect(page).toHaveURL(/\/chat$/);
});
