import { expect, test, type Locator } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

/**
 * The conversation stays scrolled to its end while an answer grows, also after the chat's
 * scroll area was replaced (compare mode and back), and stops following once the person
 * scrolls up to read.
 */

/** Pixels between the bottom of the view and the end of the conversation. */
function distanceFromEnd(scroller: Locator): Promise<number> {
  return scroller.evaluate(
    (element) => element.scrollHeight - element.scrollTop - element.clientHeight,
  );
}

test("a growing answer keeps the conversation at its end, after compare mode too", async ({
  page,
}) => {
  await page.setViewportSize({ width: 900, height: 520 });
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(500);
  const scroller = page.locator("[data-conversation-scroller]");

  await chat.send("Tell me a long story about the harbour and its ferries");
  await chat.waitForAnswerDone();
  expect(await scroller.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(
    true,
  );
  await expect.poll(() => distanceFromEnd(scroller)).toBeLessThan(2);

  await page.getByRole("button", { name: "Compare", exact: true }).click();
  await page.getByRole("button", { name: "Back to the chat" }).click();
  await chat.send("And another long story about the lighthouse keeper");
  await chat.waitForAnswerDone(chat.answers.nth(1));
  await expect.poll(() => distanceFromEnd(scroller)).toBeLessThan(2);

  // Scrolled up to read: the next answer does not pull the view down.
  await scroller.evaluate((element) => element.scrollTo({ top: 0 }));
  await chat.send("One more story about the fishing boats");
  await chat.waitForAnswerDone(chat.answers.nth(2));
  expect(await scroller.evaluate((element) => element.scrollTop)).toBe(0);
});
