import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { expectNoSeriousViolations } from "./pages/answer-metadata";

/** Settings panel polish: values in effect, the field that blocks sending, modalities per model. */

test("each field shows the value in effect when left empty", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.openSettings();
  await expect(chat.setting("Temperature")).toHaveAttribute("placeholder", "1, the default");
  await expect(chat.setting("Top P")).toHaveAttribute("placeholder", "0.95, the default");
  await expect(chat.setting("Max output tokens")).toHaveAttribute(
    "placeholder",
    "65536, the default",
  );
  await expect(chat.setting("Seed")).toHaveAttribute("placeholder", "random, the default");
  await expect(chat.setting("Thinking budget (tokens)")).toHaveAttribute(
    "placeholder",
    "-1 (dynamic), the default",
  );
  await expect(chat.setting("Function calling mode")).toHaveValue("");
  await expect(chat.setting("Function calling mode").locator("option:checked")).toHaveText(
    "Default (AUTO)",
  );
});

test("sending with a setting to fix opens the panel at that field", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.fillSetting("Temperature", "7");
  await page.getByRole("button", { name: "Close settings" }).click();
  await chat.send("Hello there");
  await expect(chat.notice).toBeVisible();
  await expect(chat.setting("Temperature")).toBeFocused();
  await expect(chat.setting("Temperature")).toBeInViewport();
});

test("only the response modalities the model supports are offered", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.openSettings();
  const modalities = chat.settings
    .getByRole("group", { name: /Response modalities/ })
    .getByRole("checkbox");
  const offered = () =>
    modalities.evaluateAll((boxes) => boxes.map((box) => box.parentElement!.textContent));
  // Once the model list (and so the model's traits) is in.
  await expect.poll(offered).toEqual(["TEXT"]);
  await chat.selectSetting("Model", "models/gemini-2.5-flash-preview-tts");
  await expect.poll(offered).toEqual(["AUDIO"]);
});

test("the settings panel and the header's theme setting have no serious accessibility violations", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.openSettings();
  // With what the polish added on show: a value in effect, a field to fix, the model's modalities.
  await chat.fillSetting("Temperature", "7");
  await expect(chat.setting("Temperature")).toHaveAttribute("aria-invalid", "true");
  await expectNoSeriousViolations(page, "form[aria-label='Chat settings']");
  await expectNoSeriousViolations(page, "header");
});
