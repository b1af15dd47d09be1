import { expect, test } from "@playwright/test";
import type { UsageMetadata } from "@/lib/gemini/types";
import { answerCost, formatCost, type PriceTable } from "@/lib/studio/price-table";
import { ChatPage } from "./pages/chat-page";
import { expectNoSeriousViolations } from "./pages/answer-metadata";
import { test as gatewayTest } from "./support/test-upstream-gateway";

/**
 * The raw inspector and the model in view: each answer names its model, its time to
 * first token, rate, total time and cost by the studio's price table; the inspector shows the
 * request as sent, the response headers, every streamed event as it came over the wire, and a
 * failure's full body.
 */

test("each answer shows its model, timings and cost; the inspector holds the exchange as it went over the wire", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(300);
  // The header's picker changes the conversation's model (the settings panel shows the same).
  await page.getByRole("combobox", { name: "Model" }).first().selectOption("models/gemini-2.5-pro");
  await chat.openSettings();
  await expect(chat.setting("Model")).toHaveValue("models/gemini-2.5-pro");
  await chat.fillSetting("Thinking budget (tokens)", "128");

  // Answers are generated on the studio's server: the page reads the turn's stream,
  // whose first event carries the request the server sent and whose chunk events are the
  // backend's events as the server received them.
  const answered = page.waitForResponse((response) =>
    /\/api\/conversations\/[^/]+\/turns$/.test(response.url()),
  );
  await chat.send(`Repeat after me: ${"Gulls circle the harbour at dawn. ".repeat(40)}`);
  const response = await answered;
  await chat.waitForAnswerDone();
  const turnEvents = (await response.text())
    .split("\r\n\r\n")
    .filter((event) => event.startsWith("data: "))
    .map((event) => JSON.parse(event.slice("data: ".length)) as Record<string, unknown>);
  const sentRequest = (turnEvents[0]!.turn as { request: unknown }).request;
  const wireEvents = turnEvents
    .filter((event) => event.chunk)
    .map((event) => JSON.stringify(event.chunk));
  expect(wireEvents.length).toBeGreaterThan(3);

  const facts = chat.lastAnswer().locator("[data-answer-facts]");
  await expect(facts.locator("[data-fact=model]")).toHaveText("Model gemini-2.5-pro");
  await expect(facts.locator("[data-fact=first-token]")).toContainText(/first token [\d,]+ ms/);
  await expect(facts.locator("[data-fact=rate]")).toContainText(/[\d,]+ tokens\/s/);
  await expect(facts.locator("[data-fact=total]")).toContainText(/total [\d,.]+ m?s/);
  // The cost is the price table's, for the usage the last event reported.
  const usage = JSON.parse(wireEvents.at(-1)!).usageMetadata as UsageMetadata;
  const prices = (await (await page.request.get("/api/prices")).json()) as PriceTable;
  const cost = answerCost(usage, "models/gemini-2.5-pro", prices)!;
  expect(cost.amount).toBeGreaterThan(0);
  await expect(facts.locator("[data-fact=cost]")).toContainText(`cost ${formatCost(cost)}`);

  await chat.lastAnswer().getByRole("button", { name: "Inspect this answer" }).click();
  const dialog = page.getByRole("dialog", { name: "Inspect this answer" });
  await expect(dialog.locator('[data-inspector-fact="HTTP status"]')).toHaveText("200");
  await expect(dialog.locator('[data-inspector-fact="Time to first token"]')).toHaveText(
    /^[\d,.]+ ms$/,
  );
  await expect(dialog.locator('[data-inspector-fact="Events"]')).toHaveText(
    String(wireEvents.length),
  );
  expect(JSON.parse((await dialog.locator("[data-inspector-usage]").textContent())!)).toEqual(
    usage,
  );
  await expectNoSeriousViolations(page, "dialog[open]");

  await dialog.getByRole("tab", { name: "Request" }).click();
  expect(JSON.parse((await dialog.locator("[data-inspector-request]").textContent())!)).toEqual(
    sentRequest,
  );
  await dialog.getByRole("tab", { name: "Response headers" }).click();
  await expect(dialog.locator("[data-inspector-headers]")).toContainText("HTTP 200");
  await expect(dialog.locator("[data-inspector-headers]")).toContainText(
    "content-type: text/event-stream",
  );
  await dialog.getByRole("tab", { name: "Events" }).click();
  const rows = dialog.locator("[data-inspector-event]");
  await expect(rows).toHaveCount(wireEvents.length);
  // Every event exactly as it arrived, in order, with non-decreasing arrival times.
  const shown = await rows.evaluateAll((elements) =>
    elements.map((row) => ({
      at: Number(row.children[1]!.textContent!.replace(/,/g, "")),
      data: row.children[2]!.textContent!,
    })),
  );
  expect(shown.map((event) => event.data)).toEqual(wireEvents);
  for (let index = 1; index < shown.length; index++)
    expect(shown[index]!.at).toBeGreaterThanOrEqual(shown[index - 1]!.at);
  await expectNoSeriousViolations(page, "dialog[open]");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(
    chat.lastAnswer().getByRole("button", { name: "Inspect this answer" }),
  ).toBeFocused();

  // The timings are kept with the answer: still shown after a reload.
  await expect
    .poll(async () =>
      page.evaluate(async (id) => {
        const conversation = await (await fetch(`/api/conversations/${id}`)).json();
        return conversation.messages.at(-1)?.timing?.totalMs ?? null;
      }, chat.conversationId()),
    )
    .not.toBeNull();
  await page.reload();
  await expect(chat.lastAnswer().locator("[data-fact=first-token]")).toBeVisible();
});

gatewayTest(
  "an answer that fails mid-stream shows the error's full body in the inspector",
  async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.open();
    // Through the gateway, from the test upstream: two events, then the service's 500 error object.
    await chat.selectSetting("Model", "models/error-midstream-chat");
    await chat.send(`Tell me about harbours ${Date.now()}`);
    await chat.waitForAnswerDone();
    await expect(chat.lastAnswer().getByRole("alert")).toContainText("INTERNAL");
    await chat.lastAnswer().getByRole("button", { name: "Inspect this answer" }).click();
    const dialog = page.getByRole("dialog", { name: "Inspect this answer" });
    const body = JSON.parse((await dialog.locator("[data-inspector-error]").textContent())!);
    expect(body).toEqual({
      error: {
        code: 500,
        status: "INTERNAL",
        message: expect.stringContaining("An internal error has occurred."),
      },
    });
  },
);
