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

test("text that lands between a frame's follow and its scroll event does not stop the following", async ({
  page,
}) => {
  await page.setViewportSize({ width: 900, height: 520 });
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(200);
  const scroller = page.locator("[data-conversation-scroller]");
  await chat.send("Tell me about the harbour");
  await chat.waitForAnswerDone();
  await expect.poll(() => distanceFromEnd(scroller)).toBeLessThan(2);

  // A burst grows the list; the frame after follows it (scrollTop set, its scroll event due at
  // the next frame). A second burst lands in a task before that event is dispatched.
  await scroller.evaluate(async (element) => {
    const list = element.firstElementChild!;
    const burst = () => {
      const block = document.createElement("div");
      block.style.height = "600px";
      list.append(block);
    };
    const afterFrame = () =>
      new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    burst();
    await afterFrame();
    burst();
    await afterFrame();
    await afterFrame();
  });
  await expect.poll(() => distanceFromEnd(scroller)).toBeLessThan(2);
});
