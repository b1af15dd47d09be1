import fs from "node:fs";
import {
  AUDIO,
  CITED,
  GROUNDED,
  LOGPROBS,
  RECORDED_ANSWERS,
  recordedAnswerModel,
  type RecordedAnswerName,
} from "./fixtures/recorded-answers";
import {
  audioDuration,
  expectNoSeriousViolations,
  expectSingleCitation,
  focusedTokenDescription,
  openHeatMap,
  utf8Bytes,
} from "./pages/answer-metadata";
import { ChatPage } from "./pages/chat-page";
import { TEST_UPSTREAM_KEY, expect, test } from "./support/test-upstream-gateway";

/**
 * Answer metadata in the chat through the gateway: the studio runs in upstream mode against
 * the test upstream, which streams the service's recorded answers (e2e/fixtures/
 * recorded-answers.ts) for the models `answer-<name>-v1`. The browser talks only to the
 * gateway, as in production; the answers cross the gateway's SSE pass-through unchanged.
 */

/** Opens a new chat on the recorded answer's model and asks it something. */
async function askRecorded(chat: ChatPage, name: RecordedAnswerName, prompt: string) {
  await chat.open();
  await chat.selectSetting("Model", `models/${recordedAnswerModel(name)}`);
  await chat.send(prompt);
  await chat.waitForAnswerDone();
  return chat.lastAnswer();
}

test("the gateway forwards the chat's stream to the upstream with the server key", async ({
  page,
  gateway,
}) => {
  const chat = new ChatPage(page);
  await askRecorded(chat, "cited", "Which poem opens with Über allen Gipfeln?");
  const [seen] = gateway.upstream.requestsFor(
    `${recordedAnswerModel("cited")}:streamGenerateContent`,
  );
  expect(seen?.headers["x-goog-api-key"]).toBe(TEST_UPSTREAM_KEY);
  expect(seen?.bodyText).toContain("Which poem opens with Über allen Gipfeln?");
});

test("grounding and URL context are shown, byte offsets past a multi-byte dash right, the search entry point sandboxed", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const title = await page.goto("/chat").then(() => page.title());
  const answer = await askRecorded(chat, "grounded", "Who won euro 2024?");

  const marks = answer.locator('mark[data-cited="support"]');
  await expect(marks).toHaveText(["Spain won Euro 2024", GROUNDED.second]);
  const firstMarker = answer.locator('a[data-marker="support"]').first();
  await expect(firstMarker).toHaveText("[1,2]");
  await firstMarker.focus();
  await expect(answer.getByRole("tooltip").first()).toHaveText(
    "Supported by web source 1 (uefa.com, confidence 0.97); web source 2 (aljazeera.com, confidence 0.81)",
  );

  const grounding = answer.getByRole("region", { name: "Grounding" });
  await expect(grounding.getByRole("link", { name: "uefa.com" })).toHaveAttribute(
    "href",
    GROUNDED.chunks[0].uri,
  );
  await expect(grounding.getByRole("link", { name: "aljazeera.com" })).toHaveAttribute(
    "rel",
    /noopener/,
  );
  await expect(grounding.locator("[data-grounding-support]").first()).toContainText(
    "[1] confidence 0.97",
  );
  await expect(grounding.locator("[data-grounding-support]").nth(1)).toContainText(
    "[2] confidence 0.64",
  );
  await expect(grounding.locator("[data-search-query]")).toHaveText([GROUNDED.query]);
  const frame = grounding.locator("iframe[data-search-entry-point]");
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(frame).toHaveAttribute("title", "Search suggestions");
  await expect(page.frameLocator("iframe[data-search-entry-point]").locator(".chip")).toHaveText(
    GROUNDED.query,
  );
  // The script in the entry point did not run (the sandbox allows no scripts). Polled: while
  // the chat moves to the new conversation's URL the title is briefly empty.
  await expect(page).toHaveTitle(title);

  const urls = answer.getByRole("region", { name: "URL context" });
  await expect(urls.locator('[data-url-status="URL_RETRIEVAL_STATUS_SUCCESS"]')).toContainText(
    `${GROUNDED.urls[0].retrievedUrl}: retrieved`,
  );
  await expect(urls.locator('[data-url-status="URL_RETRIEVAL_STATUS_PAYWALL"]')).toContainText(
    `${GROUNDED.urls[1].retrievedUrl}: behind a paywall`,
  );
  await expectNoSeriousViolations(page);
});

test("the service's citation of a web source marks the span in a non-ASCII answer, with its link and licence", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const answer = await askRecorded(chat, "cited", "Which poem opens with Über allen Gipfeln?");
  await expectSingleCitation(page, answer, {
    span: CITED.span,
    start: utf8Bytes(CITED.before),
    source: `${CITED.uri} (licence ${CITED.license})`,
  });
  const entry = answer.getByRole("region", { name: "Citations" }).getByRole("listitem");
  await expect(entry.getByRole("link", { name: CITED.uri })).toHaveAttribute("href", CITED.uri);
  await expect(entry).toContainText(`(licence ${CITED.license})`);
  await answer.getByRole("button", { name: "Formatted answer (without source marks)" }).click();
  await expect(chat.answerText(answer)).toHaveText(CITED.before + CITED.span + CITED.after);
  await expectNoSeriousViolations(page);
});

test("logprobs streamed in pieces make one heat map: each token's probability, its alternatives, the average", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const answer = await askRecorded(chat, "logprobs", "How often do tides turn?");
  const text = LOGPROBS.steps.map((step) => step.token).join("");
  const tokens = await openHeatMap(answer, text);
  await expect(tokens).toHaveCount(LOGPROBS.steps.length);
  expect(
    await tokens.evaluateAll((elements) =>
      elements.map((element) => element.getAttribute("data-token-probability")),
    ),
  ).toEqual(LOGPROBS.steps.map((step) => Math.exp(step.logProbability).toFixed(4)));
  await expect(answer.getByLabel("Colour legend")).toContainText(
    `average log probability ${LOGPROBS.avgLogprobs.toFixed(3)}`,
  );
  await tokens.first().focus();
  await expect(focusedTokenDescription(answer)).toHaveText(
    '"Tides" 90.0 %; alternatives: "Tides" 90.0 %, "Waves" 9.1 %, "The" 4.5 %',
  );
  // Keyboard: the next token takes focus and shows its own alternatives, best first.
  await page.keyboard.press("Tab");
  await expect(tokens.nth(1)).toBeFocused();
  await expect(focusedTokenDescription(answer)).toHaveText(
    '" turn" 60.0 %; alternatives: " turn" 60.0 %, " rise" 30.1 %, " come" 5.5 %',
  );
  await expectNoSeriousViolations(page);
});

test("an audio part of raw PCM plays as WAV; other inline data is offered as a download", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const answer = await askRecorded(chat, "audio", "Say hello");
  const audio = answer.locator("audio");
  await expect(audio).toHaveAccessibleName(`Audio in the answer (${AUDIO.pcmMimeType})`);
  // The browser decodes the WAV: its duration is the PCM's.
  expect(Math.round((await audioDuration(audio)) * 100) / 100).toBe(AUDIO.pcmSeconds);
  await expect(answer.getByRole("link", { name: "Download answer.wav" })).toBeVisible();
  const zip = answer.locator('[data-inline-media="file"][data-mime-type="application/zip"]');
  await expect(zip).toContainText(`application/zip, ${AUDIO.zipBytes.length} bytes`);
  const download = page.waitForEvent("download");
  await zip.getByRole("link", { name: "Download answer.zip" }).click();
  expect((await download).suggestedFilename()).toBe("answer.zip");

  // HTML (as SVG, XML, script) is only ever a download: its URL, opened as a page in the
  // studio's origin, is downloaded, never rendered or run.
  const html = answer.locator('[data-inline-media="file"][data-mime-type="text/html"]');
  const link = html.getByRole("link", { name: "Download answer.html" });
  const href = (await link.getAttribute("href"))!;
  expect(href).toMatch(/^blob:/);
  const opened = await page.context().newPage();
  const downloaded = opened.waitForEvent("download");
  await opened.goto(href).catch(() => undefined);
  const file = await downloaded;
  expect(await fs.promises.readFile((await file.path())!, "utf8")).toBe(AUDIO.html);
  expect(await opened.title()).not.toBe("ran");
  await opened.close();
});

// What the studio itself received goes back in history as it came.
test("model audio and other inline data go back to the service in history byte for byte, and the next turn answers", async ({
  page,
  gateway,
}) => {
  const chat = new ChatPage(page);
  await askRecorded(chat, "audio", "Say hello");
  await chat.send("Say it once more");
  await chat.waitForAnswerDone();
  await expect(chat.lastAnswer().getByRole("alert")).toHaveCount(0);
  await expect(chat.lastAnswer().locator("audio")).toHaveCount(1);
  const sent = gateway.upstream.requestsFor(
    `${recordedAnswerModel("audio")}:streamGenerateContent`,
  );
  const body = JSON.parse(sent.at(-1)!.bodyText) as {
    contents: { role: string; parts: unknown[] }[];
  };
  expect(body.contents.map((content) => content.role)).toEqual(["user", "model", "user"]);
  const received = (
    RECORDED_ANSWERS.audio[0] as { candidates: { content: { parts: unknown[] } }[] }
  ).candidates[0]!.content.parts;
  expect(body.contents[1]!.parts).toEqual(received);
});
