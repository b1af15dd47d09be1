import { expect, test } from "@playwright/test";
import {
  audioDuration,
  expectNoSeriousViolations,
  expectSingleCitation,
  focusedTokenDescription,
  openHeatMap,
} from "./pages/answer-metadata";
import { ChatPage } from "./pages/chat-page";
import { attachmentCard, dropFiles } from "./pages/files-page";

/**
 * Answer metadata in the chat from real local-engine answers: a citation of an attached file,
 * the logprobs heat map and the speech model's raw PCM audio. The metadata the local engine
 * never produces (grounding, URL context) and the same views from the service's recorded
 * answers are in chat-metadata-gateway.spec.ts.
 */

test("a local-engine answer that copies an attached file is cited: marked span, marker with the file on focus, list under the answer", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(20);
  const said = `the harbour lights were painted grün – ${Date.now() % 1000} days ago`;
  const name = `harbour-log-${Date.now()}.txt`;
  await dropFiles(page.getByTestId("drop-zone-new"), [
    { name, mimeType: "text/plain", bytes: Buffer.from(`Harbour log: ${said} and nothing more.`) },
  ]);
  await expect(attachmentCard(page, name)).toHaveAttribute("data-status", "active", {
    timeout: 30_000,
  });
  await chat.send(`Repeat after me: ${said}`);
  await chat.waitForAnswerDone();
  const answer = chat.lastAnswer();

  await expectSingleCitation(page, answer, { span: said, start: 0, source: /files\/[a-z0-9-]+$/ });

  // The formatted answer drops the marks; the list stays.
  await answer.getByRole("button", { name: "Formatted answer (without source marks)" }).click();
  await expect(answer.locator('mark[data-cited="citation"]')).toHaveCount(0);
  await expect(chat.answerText(answer)).toHaveText(said);
  await expect(answer.getByRole("region", { name: "Citations" })).toBeVisible();
  await expectNoSeriousViolations(page);
});

test("an answer that repeats the conversation is not a citation (the service cites no part of a prompt)", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(20);
  const said = `seven herons waited on the pier – ${Date.now() % 1000} of them`;
  await chat.send(`Remember this: ${said} and nothing more`);
  await chat.waitForAnswerDone();
  await chat.send(`Repeat after me: ${said}`);
  await chat.waitForAnswerDone(chat.answers.nth(1));
  const answer = chat.answers.nth(1);
  await expect(chat.answerText(answer)).toHaveText(said);
  await expect(answer.locator('a[data-marker="citation"]')).toHaveCount(0);
  await expect(answer.getByRole("region", { name: "Citations" })).toHaveCount(0);
});

test("with logprobs the answer's tokens are a heat map with the top alternatives on focus", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(30);
  await chat.setting("Return logprobs").check();
  await chat.fillSetting("Top logprobs per step", "3");
  const said = `Seven quiet herons crossed the river ${Date.now() % 1000}`;
  await chat.send(`Repeat after me: ${said}`);
  await chat.waitForAnswerDone();
  const answer = chat.lastAnswer();
  const tokens = await openHeatMap(answer, said);
  for (const probability of await tokens.evaluateAll((elements) =>
    elements.map((element) => Number(element.getAttribute("data-token-probability"))),
  )) {
    expect(probability).toBeGreaterThan(0);
    expect(probability).toBeLessThanOrEqual(1);
  }
  await tokens.first().focus();
  const description = focusedTokenDescription(answer);
  await expect(description).toHaveCount(1);
  await expect(description).toHaveText(
    /^".+" \d+\.\d %; alternatives: (".*" \d+\.\d %(, )?){1,3}$/,
  );
  await page.keyboard.press("Tab");
  await expect(tokens.nth(1)).toBeFocused();
  await expectNoSeriousViolations(page);
});

test("the local speech model's raw PCM answer plays in the chat", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.openSettings();
  await chat.selectSetting("Model", "models/gemini-2.5-flash-preview-tts");
  // The speech model answers audio only.
  await chat.setting("AUDIO").check();
  // TEXT is not offered for a speech-only model.
  await expect(chat.setting("TEXT")).toHaveCount(0);
  await chat.send("Good morning to the whole harbour");
  await chat.waitForAnswerDone();
  const answer = chat.lastAnswer();
  const media = answer.locator('[data-inline-media="audio"]');
  await expect(media).toHaveAttribute("data-mime-type", /^audio\/L16;codec=pcm;rate=24000$/i);
  const audio = media.locator("audio");
  // The browser decodes the wrapped WAV: a spoken sentence lasts a second or more.
  expect(await audioDuration(audio)).toBeGreaterThan(1);
  await audio.evaluate((element: HTMLAudioElement) => element.play());
  await expect
    .poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime))
    .toBeGreaterThan(0);
});

test("a local image model's picture shows in the answer after its text", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.openSettings();
  await chat.selectSetting("Model", "models/gemini-2.5-flash-image");
  await chat.setting("TEXT").check();
  await chat.setting("IMAGE").check();
  await chat.send("Draw the harbour at dawn");
  await chat.waitForAnswerDone();
  const picture = chat.lastAnswer().getByRole("img", { name: "Image in the answer" });
  await expect(picture).toHaveAttribute("src", /^data:image\/png;base64,/);
  // The browser decodes it: a real picture, not a broken image.
  await expect
    .poll(() => picture.evaluate((element: HTMLImageElement) => element.naturalWidth))
    .toBe(512);
  await expectNoSeriousViolations(page);
});
