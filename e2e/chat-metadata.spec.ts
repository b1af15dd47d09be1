import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

/**
 * Answer metadata in the chat: citations from a real local-engine answer, and grounding,
 * URL context and an audio inline_data part from recorded-shape upstream answers. The
 * upstream answers are served by Playwright's `page.route` on the browser's
 * streamGenerateContent request (an SSE body of the service's recorded shape), because the
 * local engine never searches the web or fetches URLs.
 */

function sse(chunks: unknown[]): string {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("");
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), scheme === "dark");
    // The search entry point is the service's own HTML in a script-less sandbox: axe cannot run inside it, and it is not ours to fix.
    const results = await new AxeBuilder({ page }).include("[aria-label='Answer']").exclude("iframe[data-search-entry-point]").analyze();
    const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
    expect(serious.map((violation) => `${scheme}: ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
  }
}

async function answerWith(page: Page, chunks: unknown[]): Promise<void> {
  await page.route("**/v1beta/models/*:streamGenerateContent*", (route) =>
    route.fulfill({ status: 200, headers: { "Content-Type": "text/event-stream" }, body: sse(chunks) }),
  );
}

const GROUNDED_TEXT = "Spain won Euro 2024, beating England 2–1 in the final.";
const bytes = (text: string) => Buffer.byteLength(text, "utf8");

test("a local-engine answer that repeats the history is cited: marked span, marker with its source on focus, list under the answer", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(20);
  const said = `the harbour lights were painted green in ${Date.now() % 1000} days`;
  await chat.send(`Remember this: ${said} and nothing more`);
  await chat.waitForAnswerDone();
  await chat.send(`Repeat after me: ${said}`);
  await chat.waitForAnswerDone(chat.answers.nth(1));
  const answer = chat.answers.nth(1);

  const marked = answer.locator('mark[data-cited="citation"]');
  await expect(marked).toHaveText(said);
  const marker = answer.locator('a[data-marker="citation"]');
  await expect(marker).toHaveText("[1]");
  await marker.focus();
  const tooltip = answer.getByRole("tooltip");
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toHaveText("Citation 1: this conversation");
  await expect(marker).toHaveAccessibleDescription("Citation 1: this conversation");
  const list = answer.getByRole("region", { name: "Citations" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("listitem")).toContainText(`bytes 0–${bytes(said)}`);
  await page.keyboard.press("Enter");
  await expect(list.getByRole("listitem")).toBeFocused();

  // The formatted answer drops the marks; the list stays.
  await answer.getByRole("button", { name: "Formatted answer (without source marks)" }).click();
  await expect(marked).toHaveCount(0);
  await expect(chat.answerText(answer)).toHaveText(said);
  await expect(list).toBeVisible();
  await expectNoSeriousViolations(page);
});

test("grounding and URL context of a recorded-shape upstream answer are shown, the search entry point sandboxed", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const segmentEnd = bytes("Spain won Euro 2024");
  await answerWith(page, [
    { candidates: [{ content: { role: "model", parts: [{ text: "Spain won Euro 2024, " }] }, index: 0 }], modelVersion: "gemini-2.5-flash", responseId: "grounded-1" },
    {
      candidates: [
        {
          content: { role: "model", parts: [{ text: "beating England 2–1 in the final." }] },
          finishReason: "STOP",
          index: 0,
          groundingMetadata: {
            webSearchQueries: ["euro 2024 winner"],
            searchEntryPoint: { renderedContent: '<div class="chip">euro 2024 winner</div><script>parent.document.title = "escaped"</script>' },
            groundingChunks: [
              { web: { uri: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc", title: "uefa.com" } },
              { web: { uri: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/def", title: "aljazeera.com" } },
            ],
            groundingSupports: [
              { segment: { startIndex: 0, endIndex: segmentEnd, text: "Spain won Euro 2024" }, groundingChunkIndices: [0, 1], confidenceScores: [0.97, 0.81] },
              { segment: { startIndex: bytes("Spain won Euro 2024, "), endIndex: bytes(GROUNDED_TEXT), text: "beating England 2–1 in the final." }, groundingChunkIndices: [1], confidenceScores: [0.64] },
            ],
          },
          urlContextMetadata: {
            urlMetadata: [
              { retrievedUrl: "https://www.uefa.com/euro2024/", urlRetrievalStatus: "URL_RETRIEVAL_STATUS_SUCCESS" },
              { retrievedUrl: "https://example.com/paywalled", urlRetrievalStatus: "URL_RETRIEVAL_STATUS_PAYWALL" },
            ],
          },
        },
      ],
      usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 16, totalTokenCount: 24 },
      modelVersion: "gemini-2.5-flash",
      responseId: "grounded-1",
    },
  ]);
  const title = await page.title();
  await chat.send("Who won euro 2024?");
  await chat.waitForAnswerDone();
  const answer = chat.lastAnswer();

  // Both supported segments are marked, with the byte offsets past the multi-byte dash right.
  const marks = answer.locator('mark[data-cited="support"]');
  await expect(marks).toHaveText(["Spain won Euro 2024", "beating England 2–1 in the final."]);
  const firstMarker = answer.locator('a[data-marker="support"]').first();
  await expect(firstMarker).toHaveText("[1,2]");
  await firstMarker.focus();
  await expect(answer.getByRole("tooltip").first()).toHaveText("Supported by web source 1 (uefa.com, confidence 0.97); web source 2 (aljazeera.com, confidence 0.81)");

  const grounding = answer.getByRole("region", { name: "Grounding" });
  await expect(grounding.getByRole("link", { name: "uefa.com" })).toHaveAttribute("href", "https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc");
  await expect(grounding.getByRole("link", { name: "aljazeera.com" })).toHaveAttribute("rel", /noopener/);
  await expect(grounding.locator("[data-grounding-support]").first()).toContainText("[1] confidence 0.97");
  await expect(grounding.locator("[data-grounding-support]").nth(1)).toContainText("[2] confidence 0.64");
  await expect(grounding.locator("[data-search-query]")).toHaveText(["euro 2024 winner"]);
  const frame = grounding.locator("iframe[data-search-entry-point]");
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(frame).toHaveAttribute("title", "Search suggestions");
  await expect(page.frameLocator("iframe[data-search-entry-point]").locator(".chip")).toHaveText("euro 2024 winner");
  // The script in the entry point did not run (the sandbox allows no scripts).
  expect(await page.title()).toBe(title);

  const urls = answer.getByRole("region", { name: "URL context" });
  await expect(urls.locator('[data-url-status="URL_RETRIEVAL_STATUS_SUCCESS"]')).toContainText("https://www.uefa.com/euro2024/: retrieved");
  await expect(urls.locator('[data-url-status="URL_RETRIEVAL_STATUS_PAYWALL"]')).toContainText("https://example.com/paywalled: behind a paywall");
  await expectNoSeriousViolations(page);
});

test("an audio part of raw PCM plays as WAV; other inline data is offered as a download", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  // 0.25 s of a 440 Hz tone, 16-bit little-endian mono at 24 kHz: the shape the speech model answers.
  const samples = Buffer.alloc(24000 / 4 * 2);
  for (let index = 0; index < samples.length / 2; index++) samples.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * index) / 24000)), index * 2);
  await answerWith(page, [
    {
      candidates: [
        {
          content: {
            role: "model",
            parts: [{ inlineData: { mimeType: "audio/L16;codec=pcm;rate=24000", data: samples.toString("base64") } }, { inlineData: { mimeType: "application/zip", data: Buffer.from("PK\u0005\u0006").toString("base64") } }],
          },
          finishReason: "STOP",
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 8, totalTokenCount: 13 },
      modelVersion: "gemini-2.5-flash-preview-tts",
      responseId: "audio-1",
    },
  ]);
  await chat.send("Say hello");
  await chat.waitForAnswerDone();
  const answer = chat.lastAnswer();
  const audio = answer.locator("audio");
  await expect(audio).toHaveAttribute("src", /^blob:/);
  await expect(audio).toHaveAccessibleName("Audio in the answer (audio/L16;codec=pcm;rate=24000)");
  // The browser decodes the WAV: its duration is the PCM's.
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => (Number.isFinite(element.duration) ? Math.round(element.duration * 100) / 100 : -1))).toBe(0.25);
  await expect(answer.getByRole("link", { name: "Download answer.wav" })).toBeVisible();
  const zip = answer.locator('[data-inline-media="file"]');
  await expect(zip).toContainText("application/zip, 4 bytes");
  const download = page.waitForEvent("download");
  await zip.getByRole("link", { name: "Download answer.zip" }).click();
  expect((await download).suggestedFilename()).toBe("answer.zip");
});

test("with logprobs the answer's tokens are a heat map with the top alternatives on focus", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(30);
  await chat.setting("Return logprobs").check();
  await chat.fillSetting("Top logprobs per step", "3");
  const said = `Seven quiet herons crossed the river ${Date.now() % 1000}`;
  await chat.send(`Repeat after me: ${said}`);
  await chat.waitForAnswerDone();
  const answer = chat.lastAnswer();
  const toggle = answer.getByRole("button", { name: "Token heat map" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const tokens = answer.locator("[data-token-probability]");
  // The chosen tokens spell the answer.
  await expect.poll(async () => (await tokens.allTextContents()).join("")).toBe(said);
  for (const probability of await tokens.evaluateAll((elements) => elements.map((element) => Number(element.getAttribute("data-token-probability"))))) {
    expect(probability).toBeGreaterThan(0);
    expect(probability).toBeLessThanOrEqual(1);
  }
  await tokens.first().focus();
  const description = answer.getByRole("tooltip").filter({ visible: true });
  await expect(description).toHaveCount(1);
  await expect(description).toHaveText(/^".+" \d+\.\d %; alternatives: (".*" \d+\.\d %(, )?){1,3}$/);
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
  await chat.setting("TEXT").uncheck();
  await chat.send("Good morning to the whole harbour");
  await chat.waitForAnswerDone();
  const answer = chat.lastAnswer();
  const media = answer.locator('[data-inline-media="audio"]');
  await expect(media).toHaveAttribute("data-mime-type", /^audio\/L16;codec=pcm;rate=24000$/i);
  const audio = media.locator("audio");
  await expect(audio).toHaveAttribute("src", /^blob:/);
  // The browser decodes the wrapped WAV: a spoken sentence lasts a second or more.
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => (Number.isFinite(element.duration) ? element.duration : -1))).toBeGreaterThan(1);
  await audio.evaluate((element: HTMLAudioElement) => element.play());
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime)).toBeGreaterThan(0);
});
