import { ChatPage } from "./pages/chat-page";
import { startOwnServer } from "./support/fuzz/own-server.mjs";
import { TEST_UPSTREAM_KEY, expect, test } from "./support/test-upstream-gateway";

/**
 * Upstream (gateway) mode: the studio's server generates the answer through the
 * gateway backend, against the test upstream (e2e/support/test-upstream.ts): `paced-chat`
 * streams a word every 100 ms for a minute, `error-midstream-chat` fails after two events,
 * `long-429-chat` answers 429 RESOURCE_EXHAUSTED asking (RetryInfo, Retry-After) for 120 s.
 */

async function openOn(chat: ChatPage, model: string) {
  await chat.open();
  await chat.selectSetting("Model", `models/${model}`);
}

test("a stream that fails midway keeps its partial text, shows the error, and Retry asks again as a new version", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await openOn(chat, "error-midstream-chat");
  await chat.send(`Tell me about bridges ${Date.now()}`);
  await chat.waitForAnswerDone();
  const answer = chat.lastAnswer();
  await expect(answer.getByRole("alert")).toContainText("An internal error has occurred.");
  await expect(answer.getByRole("alert")).toContainText("500");
  await expect(chat.answerText(answer)).toHaveText("First part. Second part.");
  const id = chat.conversationId()!;
  await page.reload();
  await expect(chat.answerText()).toHaveText("First part. Second part.");
  await expect(chat.lastAnswer().getByRole("alert")).toContainText("An internal error");

  await chat.selectSetting("Model", "models/paced-chat");
  await chat.lastAnswer().getByRole("button", { name: "Retry" }).click();
  await expect.poll(async () => (await chat.answerText().innerText()).length).toBeGreaterThan(10);
  await chat.stopButton.click();
  await chat.waitForAnswerDone();
  await expect(chat.lastAnswer().getByRole("alert")).toHaveCount(0);
  await expect(chat.versionPosition(chat.lastAnswer())).toHaveText("2 / 2");
  expect(id).toBe(chat.conversationId());
});

test("stop ends the upstream stream, and a reload mid-stream joins the live answer", async ({
  page,
  gateway,
}) => {
  const chat = new ChatPage(page);
  await openOn(chat, "paced-chat");
  await chat.send(`Count slowly ${Date.now()}`);
  await expect(chat.answerText()).toContainText("word3", { timeout: 30_000 });
  await page.reload();
  const answer = chat.lastAnswer();
  await expect(answer).toHaveAttribute("aria-busy", "true");
  await expect(chat.answerText(answer)).toContainText("word12", { timeout: 30_000 });
  await chat.stopButton.click();
  await expect(answer.locator('[data-message-status="stopped"]')).toBeVisible();
  const partial = ((await chat.answerText(answer).textContent()) ?? "").trim();
  expect(partial).not.toContain("word599");
  // The server stopped reading the upstream: its request was cut, not left to run for a minute.
  await expect
    .poll(
      () =>
        gateway.upstream
          .requestsFor("paced-chat:streamGenerateContent")
          .filter((request) => request.abortedAt !== null).length,
    )
    .toBeGreaterThanOrEqual(1);
  await page.reload();
  await expect(chat.answerText()).toHaveText(partial);
});

test("a second instance on the same database follows an answer the first one generates, and can stop it", async ({
  gateway,
  browser,
}) => {
  test.setTimeout(120_000);
  const second = await startOwnServer({
    dataDir: gateway.server.dataDir,
    env: {
      GEMINI_API_KEY: TEST_UPSTREAM_KEY,
      GEMINI_BASE_URL: gateway.upstream.url,
    },
  });
  const one = await browser.newContext({ baseURL: gateway.server.baseUrl });
  const two = await browser.newContext({ baseURL: second.baseUrl });
  try {
    const chatOne = new ChatPage(await one.newPage());
    await openOn(chatOne, "paced-chat");
    await chatOne.send(`Count for two instances ${Date.now()}`);
    await expect(chatOne.answerText()).toContainText("word2", { timeout: 30_000 });
    const id = chatOne.conversationId()!;

    const chatTwo = new ChatPage(await two.newPage());
    await chatTwo.open(id);
    const answer = chatTwo.lastAnswer();
    await expect(answer).toHaveAttribute("aria-busy", "true");
    // Instance two shows what instance one writes as it grows: every 200 ms once instance one
    // has seen instance two's mark (at its next look, within a second: SQLite has no signals).
    await expect(chatTwo.answerText(answer)).toContainText("word25", { timeout: 30_000 });
    await chatTwo.stopButton.click();
    // Instance one's runner reads the stop asked through the database and stops.
    await expect(answer.locator('[data-message-status="stopped"]')).toBeVisible({
      timeout: 30_000,
    });
    await expect(chatOne.lastAnswer().locator('[data-message-status="stopped"]')).toBeVisible();
    const finalOne = ((await chatOne.answerText().textContent()) ?? "").trim();
    expect(finalOne).not.toContain("word599");
    await expect(chatTwo.answerText(answer)).toHaveText(finalOne);
  } finally {
    await one.close();
    await two.close();
    await second.stop("SIGTERM");
  }
});

// A 429's Retry used to resend at once, to be refused again.
test("a 429 holds Retry until its Retry-After, counting down, also after a reload", async ({
  page,
  gateway,
}) => {
  // The page's clock runs as usual until the test moves it on.
  await page.clock.install();
  const chat = new ChatPage(page);
  await openOn(chat, "long-429-chat");
  await chat.send(`Too many questions ${Date.now()}`);
  await chat.waitForAnswerDone();
  const answer = chat.lastAnswer();
  await expect(answer.getByRole("alert")).toContainText("429 RESOURCE_EXHAUSTED");
  const retry = answer.getByRole("button", { name: /^Retry/ });
  await expect(retry).toBeDisabled();
  await expect(retry).toHaveText(/^Retry in 1[01]\d s$/);
  await expect(answer.locator("[data-retry-after]")).toContainText("asked to wait");
  const asked = gateway.upstream.requestsFor("long-429-chat:streamGenerateContent").length;

  await page.clock.fastForward("01:00");
  await expect(retry).toHaveText(/^Retry in [56]\d s$/);
  // The wait is kept with the answer, as a moment: a reload still waits.
  await page.reload();
  await expect(chat.lastAnswer().getByRole("button", { name: /^Retry in \d+ s$/ })).toBeDisabled();

  await page.clock.fastForward("02:05");
  const ready = chat.lastAnswer().getByRole("button", { name: "Retry", exact: true });
  await expect(ready).toBeEnabled();
  await ready.click();
  await chat.waitForAnswerDone();
  await expect(chat.versionPosition(chat.lastAnswer())).toHaveText("2 / 2");
  expect(gateway.upstream.requestsFor("long-429-chat:streamGenerateContent").length).toBe(
    asked + 1,
  );
});
