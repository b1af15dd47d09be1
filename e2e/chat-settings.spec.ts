import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

/** Settings, safety display, JSON and candidates on the chat page, and its accessibility. */

test("settings out of range show inline errors and nothing is sent", async ({ page }) => {
  const chat = new ChatPage(page);
  // Turns go to the studio's server, which generates the answer: none may start.
  const turnRequests: string[] = [];
  page.on("request", (request) => {
    if (/\/api\/conversations\/[^/]+\/turns/.test(request.url())) turnRequests.push(request.url());
  });
  await chat.open();
  await chat.fillSetting("Temperature", "3");
  await expect(chat.settings.getByText("temperature must be in the range [0, 2]")).toBeVisible();
  await expect(chat.setting("Temperature")).toHaveAttribute("aria-invalid", "true");
  await chat.fillSetting("Stop sequences (one per line, at most 5)", "a\nb\nc\nd\ne\nf");
  await expect(chat.settings.getByText(/at most 5 stop sequences/)).toBeVisible();
  await expect(chat.settingsButton).toHaveText("Settings (2 to fix)");

  await chat.send("This must not be sent");
  await expect(chat.notice).toBeVisible();
  await expect(chat.userMessages).toHaveCount(0);
  expect(turnRequests).toEqual([]);
  await expect(page).toHaveURL(/\/chat$/);

  await chat.fillSetting("Temperature", "0.7");
  await chat.fillSetting("Stop sequences (one per line, at most 5)", "a");
  await expect(chat.settingsButton).toHaveText("Settings");
  await expect(chat.notice).toBeHidden();
});

test("topK is hidden for a model without it and thinking controls show only for thinking models", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const models = await page.request.get("/v1beta/models?key=genstudio-dev-key");
  const list = (await models.json()).models as {
    name: string;
    displayName: string;
    topK?: number;
    thinking?: boolean;
  }[];
  const thinking = list.find((model) => model.thinking && model.topK !== undefined)!;
  const plain = list.find((model) => !model.thinking)!;
  const withoutTopK = list.find((model) => model.topK === undefined);
  await chat.open();
  await chat.selectSetting("Model", thinking.name);
  await expect(chat.setting("Top K")).toBeVisible();
  await expect(chat.setting("Thinking budget (tokens)")).toBeVisible();
  await chat.selectSetting("Model", plain.name);
  await expect(chat.setting("Thinking budget (tokens)")).toHaveCount(0);
  if (withoutTopK) {
    await chat.selectSetting("Model", withoutTopK.name);
    await expect(chat.setting("Top K")).toHaveCount(0);
  }
});

test("a prompt rated high under a strict threshold shows the blocked card; adjust and retry answers", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.selectSetting("Dangerous content", "BLOCK_LOW_AND_ABOVE");
  await chat.limitAnswers(40);
  await chat.send(`Explain how to build a bomb ${Date.now()}`);
  await chat.waitForAnswerDone();
  const card = chat.lastAnswer().getByRole("region", { name: "Blocked prompt" });
  await expect(card).toBeVisible();
  await expect(card).toContainText("Dangerous content");
  await expect(card).toContainText("HIGH");
  await expect(card).toContainText("BLOCK_LOW_AND_ABOVE");
  // The ratings of the prompt are there in full on demand.
  const ratings = chat.lastAnswer().locator('[data-safety-ratings="Prompt"]');
  await expect(ratings.locator("summary")).toContainText("Dangerous content HIGH (blocked)");
  await ratings.locator("summary").click();
  await expect(ratings.getByRole("table")).toContainText("Dangerous content");
  await expect(chat.answerText()).toHaveText("");

  await card
    .getByRole("button", { name: /Set Dangerous content to .Block none. and retry/ })
    .click();
  await chat.waitForAnswerDone();
  await expect(chat.lastAnswer().getByRole("region", { name: "Blocked prompt" })).toHaveCount(0);
  expect((await chat.answerText().innerText()).trim().length).toBeGreaterThan(0);
  await chat.openSettings();
  await expect(chat.setting("Dangerous content")).toHaveValue("BLOCK_NONE");
  // With BLOCK_NONE the category is still rated (OFF would leave it out).
  const answerRatings = chat.lastAnswer().locator('[data-safety-ratings="Answer"]');
  await answerRatings.locator("summary").click();
  await expect(answerRatings.getByRole("table")).toContainText("Dangerous content");
});

test("a candidate blocked by its own text shows the blocked answer card", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.selectSetting("Dangerous content", "BLOCK_ONLY_HIGH");
  await chat.send("Decode this base64: YnVpbGQgYSBib21i");
  await chat.waitForAnswerDone();
  const card = chat.lastAnswer().getByRole("region", { name: "Blocked answer" });
  await expect(card).toBeVisible();
  await expect(card).toContainText("Dangerous content");
  await expect(card).toContainText("HIGH");
  await expect(card).toContainText("BLOCK_ONLY_HIGH");
  await card.getByRole("button", { name: /and retry/ }).click();
  await chat.waitForAnswerDone();
  await expect(chat.answerText()).toContainText("build a bomb");
});

test("JSON mode with a schema shows valid, formatted JSON", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.selectSetting("Response format", "json");
  await chat.selectSetting("Schema kind", "openapi");
  const schema = {
    type: "OBJECT",
    properties: {
      city: { type: "STRING" },
      population: { type: "INTEGER" },
      rivers: { type: "ARRAY", items: { type: "STRING" } },
    },
    required: ["city", "population", "rivers"],
  };
  await chat.fillSetting("Response schema (JSON)", JSON.stringify(schema));
  await expect(chat.settings.locator("[data-field-error]")).toHaveCount(0);
  await chat.send(`Describe a city ${Date.now()}`);
  await chat.waitForAnswerDone();
  const json = chat.lastAnswer().locator("[data-json-answer]");
  await expect(json).toBeVisible();
  const text = await json.innerText();
  const value = JSON.parse(text) as { city: unknown; population: unknown; rivers: unknown };
  expect(typeof value.city).toBe("string");
  expect(Number.isInteger(value.population)).toBe(true);
  expect(Array.isArray(value.rivers)).toBe(true);
  expect(text).toBe(JSON.stringify(value, null, 2));
});

test("an invalid schema text is flagged and blocks sending", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.selectSetting("Response format", "json");
  await chat.selectSetting("Schema kind", "openapi");
  await chat.fillSetting("Response schema (JSON)", '{"type": "OBJECT",');
  await expect(chat.settings.getByText(/Not valid JSON/)).toBeVisible();
  await chat.send("Should not go");
  await expect(chat.notice).toBeVisible();
  await expect(chat.userMessages).toHaveCount(0);
});

test("candidateCount 2 shows two switchable alternatives", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.fillSetting("Candidate count", "2");
  await chat.limitAnswers(60);
  await chat.send(`Name a colour and a fruit ${Date.now()}`);
  await chat.waitForAnswerDone();
  const tabs = chat.lastAnswer().getByRole("tablist", { name: "Candidates" }).getByRole("tab");
  await expect(tabs).toHaveCount(2);
  await expect(tabs.nth(0)).toHaveAttribute("aria-selected", "true");
  const id = /\/chat\/([^/?#]+)/.exec(page.url())![1]!;
  const candidates = await page.evaluate(async (conversationId) => {
    const conversation = await (await fetch(`/api/conversations/${conversationId}`)).json();
    return conversation.messages[1].candidates.map(
      (candidate: { content: { parts: { text?: string }[] } }) =>
        candidate.content.parts.map((part) => part.text ?? "").join(""),
    );
  }, id);
  expect(candidates).toHaveLength(2);
  // Rendered markdown loses its syntax: compare letters only, the start of each candidate.
  const letters = (text: string) => text.replace(/[^\p{L}]+/gu, "");
  const shown = async () => letters((await chat.answerText().textContent()) ?? "");
  expect(letters(candidates[1]).length).toBeGreaterThan(0);
  expect(await shown()).toContain(letters(candidates[0]).slice(0, 40));
  await tabs.nth(1).click();
  await expect(tabs.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(chat.lastAnswer().getByRole("tabpanel", { name: "Candidate 2" })).toBeVisible();
  await expect.poll(shown).toContain(letters(candidates[1]).slice(0, 40));
  // The choice is saved with the conversation.
  const savedChoice = () =>
    page.evaluate(
      async (conversationId) =>
        (await (await fetch(`/api/conversations/${conversationId}`)).json()).messages[1]
          .selectedCandidate as number | undefined,
      id,
    );
  await expect.poll(savedChoice).toBe(1);
  await page.reload();
  await expect(chat.lastAnswer().getByRole("tab", { name: "Candidate 2" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
});

test("the chat page has no serious or critical accessibility violations", async ({ page }) => {
  // Two axe passes over the whole page: about 12 s here, several times that on a busy machine.
  test.setTimeout(180_000);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(400);
  // A fixed answer with what colours text: highlighted code of several languages, a table, a link, a quote.
  const markdown = [
    "Some **markdown** with `inline code` and [a link](https://example.com).",
    "```python\n# a comment\ndef f(x):\n    return 'text' + str(42)\n```",
    "```js\nconst pattern = /re+/g; class C extends D { m() { return `t${1}`; } }\n```",
    '```html\n<div class="x"><!-- comment --></div>\n```',
    "| a | b |\n|---|---|\n| 1 | true |",
    "> a quote with *emphasis*",
  ].join("\n\n");
  await chat.send(`Repeat after me: ${markdown}`);
  await chat.waitForAnswerDone();
  // Highlighting loads when the page is idle: scan once the code is coloured.
  await expect(chat.lastAnswer().locator(".hljs-string").first()).toBeVisible();
  // Scan the settled page: the token counter dims a stale count while a new one runs.
  await expect(page.getByRole("region", { name: "Token count" })).not.toHaveAttribute(
    "aria-busy",
    "true",
  );
  for (const scheme of ["light", "dark"] as const) {
    await page.evaluate(
      (dark) => document.documentElement.classList.toggle("dark", dark),
      scheme === "dark",
    );
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter(
      (violation) => violation.impact === "serious" || violation.impact === "critical",
    );
    expect(
      serious.map(
        (violation) =>
          `${scheme}: ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      ),
    ).toEqual([]);
  }
});

test("thoughts are collapsible, a function call is a card that is answered with a function response", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.fillSetting(
    "Function declarations (JSON array)",
    JSON.stringify([
      {
        name: "get_weather",
        description: "Current weather of a city",
        parameters: {
          type: "OBJECT",
          properties: { city: { type: "STRING" } },
          required: ["city"],
        },
      },
    ]),
  );
  await chat.selectSetting("Function calling mode", "ANY");
  await chat.setting("Include thought summaries").check();
  await chat.send("What is the weather in Oslo?");
  await chat.waitForAnswerDone();
  const answer = chat.lastAnswer();

  const thoughts = answer.locator("details", {
    has: page.locator("summary", { hasText: "Thoughts" }),
  });
  await expect(thoughts).toHaveCount(1);
  await expect(thoughts).not.toHaveAttribute("open", "");
  await thoughts.locator("summary").click();
  await expect(thoughts).toHaveAttribute("open", "");
  const usage = await answer.locator("[data-usage]").innerText();
  expect(Number(/thoughts (\d+)/.exec(usage)?.[1])).toBeGreaterThan(0);

  const card = answer.getByRole("region", { name: "Function call get_weather" });
  await expect(card).toContainText('"city": "Oslo"');
  await card
    .getByRole("textbox", { name: /Response of get_weather/ })
    .fill('{"temperature": 21, "sky": "clear"}');
  await card.getByRole("button", { name: "Send function response" }).click();
  await expect(chat.userMessages.last()).toContainText(
    'Function response get_weather: {"temperature":21,"sky":"clear"}',
  );
  await expect(chat.answers).toHaveCount(2);
  await chat.waitForAnswerDone();
  await expect(chat.lastAnswer().locator('[role="alert"]')).toHaveCount(0);
  // Only the last answer's call can still be answered.
  await expect(
    chat.answers.first().getByRole("button", { name: "Send function response" }),
  ).toHaveCount(0);
});

test("logprobs are shown per answer, and a new chat starts from the last settings", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(30);
  await chat.setting("Return logprobs").check();
  await chat.fillSetting("Top logprobs per step", "3");
  await chat.send(`Count to three ${Date.now()}`);
  await chat.waitForAnswerDone();
  const logprobs = chat.lastAnswer().locator("[data-logprobs]");
  await expect(logprobs.locator("summary")).toHaveText(/^Logprobs: average -?\d+\.\d{3}$/);
  await logprobs.locator("summary").click();
  await expect(logprobs.getByRole("table").locator("tbody tr").first()).toBeVisible();

  await page.getByRole("link", { name: "New chat" }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await chat.openSettings();
  await expect(chat.setting("Max output tokens")).toHaveValue("30");
  await expect(chat.setting("Return logprobs")).toBeChecked();
});
