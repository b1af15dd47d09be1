import { expect, test, type Locator } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { expectNoSeriousViolations } from "./pages/answer-metadata";

/**
 * Compare mode: one prompt answered side by side by two to four panes,
 * each with its own model and settings, streaming in parallel, with tokens, latency and cost
 * per pane; one answer picked continues the conversation.
 */

const SENTENCE = "The ferry leaves the harbour at dawn and returns at dusk. ";

async function paneTimes(pane: Locator): Promise<{ first: number; total: number }> {
  return {
    first: Number(await pane.getAttribute("data-first-token-ms")),
    total: Number(await pane.getAttribute("data-total-ms")),
  };
}

test("three panes answer one prompt in parallel, each with its own settings, and one is picked", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  // The panes start from the chat's settings: long answers, thinking off.
  await chat.limitAnswers(2000);
  await page.getByRole("button", { name: "Compare", exact: true }).click();
  const compare = page.locator("[data-compare]");
  await expect(compare.getByRole("heading", { name: "Compare answers" })).toBeVisible();
  await compare.getByLabel("Panes").selectOption("3");
  const panes = compare.getByRole("region", { name: /^Pane \d$/ });
  await expect(panes).toHaveCount(3);

  await panes
    .nth(1)
    .getByRole("combobox", { name: "Model" })
    .selectOption("models/gemini-2.5-flash-lite");
  await panes
    .nth(2)
    .getByRole("combobox", { name: "Model" })
    .selectOption("models/gemini-2.5-flash");
  // Pane 3's own settings: a short answer.
  await panes
    .nth(2)
    .getByRole("button", { name: /^Settings/ })
    .click();
  const paneSettings = page.getByRole("complementary", { name: "Settings of pane 3" });
  await paneSettings.getByLabel("Max output tokens", { exact: true }).fill("12");
  await paneSettings.getByRole("button", { name: "Close settings" }).click();
  await expect(paneSettings).toHaveCount(0);

  await chat.prompt.fill(`Repeat after me: ${SENTENCE.repeat(150)}`);
  await chat.prompt.press("Enter");
  for (let index = 0; index < 3; index++)
    await expect(panes.nth(index)).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  // A new chat was created for the prompt.
  await expect.poll(() => chat.conversationId()).not.toBeNull();

  // Streamed in parallel: every pane had its first token before any pane was finished.
  const times = await Promise.all([0, 1, 2].map((index) => paneTimes(panes.nth(index))));
  for (const time of times) expect(time.first).toBeGreaterThan(0);
  expect(Math.max(...times.map((time) => time.first))).toBeLessThan(
    Math.min(...times.map((time) => time.total)),
  );

  for (let index = 0; index < 3; index++) {
    const pane = panes.nth(index);
    await expect(pane.locator("[data-pane-answer]")).toContainText("The ferry leaves the harbour");
    await expect(pane.locator("[data-fact=first-token]")).toContainText(/first token [\d,.]+ m?s/);
    await expect(pane.locator("[data-fact=total]")).toContainText(/total [\d,.]+ m?s/);
    await expect(pane.locator("[data-fact=cost]")).toContainText(/cost \$[\d.]+/);
    await expect(pane.locator("[data-usage]")).toContainText(/output [\d,]+/);
  }
  const outputOf = async (index: number) =>
    Number(
      /output ([\d,]+)/
        .exec((await panes.nth(index).locator("[data-usage]").textContent()) ?? "")?.[1]
        ?.replace(/,/g, ""),
    );
  expect(await outputOf(0)).toBeGreaterThan(500);
  expect(await outputOf(2)).toBe(12);
  await expectNoSeriousViolations(page, "[data-compare]");

  // Pane 2's answer continues the conversation, with pane 2's model.
  const picked = (await panes.nth(1).locator("[data-pane-answer]").textContent()) ?? "";
  await panes.nth(1).getByRole("button", { name: "Continue with this answer" }).click();
  await expect(compare).toHaveCount(0);
  await expect(chat.answers).toHaveCount(1);
  await expect(chat.answerText()).toHaveText(picked);
  await expect(chat.versionPosition(chat.lastAnswer())).toHaveText(/[123]\s*\/\s*3/);
  await expect(page.getByRole("combobox", { name: "Model" }).first()).toHaveValue(
    "models/gemini-2.5-flash-lite",
  );
  await chat.send("Repeat after me: and back again.");
  await chat.waitForAnswerDone();
  await expect(chat.answers).toHaveCount(2);
  await expect(chat.answerText()).toContainText("and back again");
  await expect(chat.lastAnswer().locator("[data-fact=model]")).toContainText(
    "gemini-2.5-flash-lite",
  );
  // The other panes' answers stay as versions of the prompt, after a reload too.
  await page.reload();
  await expect(chat.versionPosition(chat.answers.first())).toHaveText(/[123]\s*\/\s*3/);
});
