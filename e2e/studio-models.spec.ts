import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { gatewayServer, GATEWAY_ACCESS_CODE } from "./support/servers";

/**
 * The model facts in the studio: the grouped picker (each model once, under a name no other
 * shows, usable on a phone), models that need something other than text sending without a
 * setting touched, and the thinking rule said and checked as the catalog states it.
 */

const MODEL_FACTS = "/api/models";

interface Facts {
  model: { name: string };
  label: string;
  purpose: string;
}

async function modelFacts(page: Page): Promise<Facts[]> {
  const response = await page.request.get(MODEL_FACTS);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { models: Facts[] }).models;
}

/** The header's model picker: its options by group. */
async function pickerGroups(page: Page): Promise<Record<string, string[]>> {
  const picker = page.getByRole("combobox", { name: "Model" }).first();
  // The list may still be on its way (the page renders without it when it is slow to read).
  await expect(picker.locator("optgroup").first()).toBeAttached();
  return picker.evaluate((select) =>
    Object.fromEntries(
      [...select.querySelectorAll("optgroup")].map((group) => [
        group.label,
        [...group.querySelectorAll("option")].map((option) => option.textContent ?? ""),
      ]),
    ),
  );
}

test("the picker groups models by what they do, each once under a distinct name", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  const groups = await pickerGroups(page);
  expect(Object.keys(groups)).toEqual(
    expect.arrayContaining(["Chat", "Images", "Speech", "Music", "Robotics"]),
  );
  const shown = Object.values(groups).flat();
  expect(new Set(shown).size).toBe(shown.length);
  expect(shown.filter((label) => label.startsWith("Nano Banana Pro"))).toHaveLength(3);
  expect(groups.Images).toContain("Nano Banana Pro (gemini-3-pro-image)");
  expect(groups.Speech).toContain("Gemini 2.5 Flash Preview TTS");
  expect(groups.Music).toContain("Lyria 3 Clip Preview");
  const values = await page
    .getByRole("combobox", { name: "Model" })
    .first()
    .locator("option")
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  expect(new Set(values).size).toBe(values.length);
  expect(values.length).toBe((await modelFacts(page)).length);
});

for (const [id, expectation] of [
  ["gemini-2.5-flash-preview-tts", "audio"],
  ["lyria-3-clip-preview", "audio"],
  ["gemini-2.5-flash-image", "image"],
] as const) {
  test(`${id} answers after being picked, without a setting touched`, async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.open();
    await page.getByRole("combobox", { name: "Model" }).first().selectOption(`models/${id}`);
    await expect(
      page.getByRole("alert").filter({ hasText: "Response modalities set to" }),
    ).toBeVisible();
    await chat.send(`A short calm one about the sea ${Date.now()}`);
    await chat.waitForAnswerDone();
    await expect(chat.notice).toHaveCount(0);
    const answer = chat.lastAnswer();
    await expect(answer.getByRole("alert")).toHaveCount(0);
    if (expectation === "audio") await expect(answer.locator("audio")).toHaveCount(1);
    else await expect(answer.getByRole("img", { name: "Image in the answer" })).toBeVisible();
  });
}

test("2.5 Pro says it always thinks, refuses a budget of 0, and picking it clears one", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.fillSetting("Thinking budget (tokens)", "0");
  await expect(chat.settingsButton).toHaveText("Settings");
  await chat.selectSetting("Model", "models/gemini-2.5-pro");
  await expect(
    page.getByRole("alert").filter({ hasText: "Thinking budget 0 cleared" }),
  ).toContainText("Gemini 2.5 Pro always thinks");
  await expect(chat.setting("Thinking budget (tokens)")).toHaveValue("");
  const field = chat.setting("Thinking budget (tokens)");
  await expect(
    chat.settings.getByText(/0 not accepted \(this model always thinks\)/),
  ).toBeVisible();
  await expect(chat.settings.getByText(/always thinks: 0 is not accepted/)).toBeVisible();
  await field.fill("0");
  await expect(chat.settings.getByText(/only works in thinking mode/)).toBeVisible();
  await expect(chat.settingsButton).toHaveText("Settings (1 to fix)");
});

test.describe("on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("the picker shows the chosen name, every page is reachable, and Enter is not 'send'", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    await chat.open();
    const picker = page.getByRole("combobox", { name: "Model" }).first();
    expect((await picker.boundingBox())!.width).toBeGreaterThan(160);
    for (const name of ["Chat", "Files", "Caches"]) {
      const link = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name });
      await expect(link).toBeInViewport({ ratio: 1 });
    }
    await expect(chat.prompt).toHaveAttribute("placeholder", "Ask something…");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow).toBeLessThanOrEqual(390);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);
  });
});

test("the Attach button draws its icon without an emoji font", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const attach = page.getByRole("button", { name: "Attach files" });
  await expect(attach.locator("svg[data-icon=paperclip]")).toBeVisible();
  await expect(attach).toHaveText("Attach");
});

test("the home page's model list reads at 4.5:1 or better in the dark theme", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Local models" })).toBeVisible();
  const results = await new AxeBuilder({ page }).withRules(["color-contrast"]).analyze();
  expect(results.violations).toEqual([]);
});

test.describe("through the gateway", () => {
  test.use({ baseURL: gatewayServer.baseUrl });

  test("the upstream's models come with the catalog's facts", async ({ page }) => {
    await page.goto("/chat");
    await page.getByLabel("Access code").fill(GATEWAY_ACCESS_CODE);
    await page.getByRole("button", { name: "Sign in" }).click();
    const chat = new ChatPage(page);
    await expect(chat.prompt).toBeVisible();
    const list = (await (await page.request.get(MODEL_FACTS)).json()) as {
      source: string;
      problem?: string;
      models: (Facts & { traits?: { thinking?: { canDisable: boolean } } })[];
    };
    expect(list.source).toBe("upstream");
    expect(list.problem).toBeUndefined();
    const pro = list.models.find((facts) => facts.model.name === "models/gemini-2.5-pro")!;
    expect(pro.traits?.thinking?.canDisable).toBe(false);
    await chat.selectSetting("Model", "models/gemini-2.5-pro");
    await expect(chat.settings.getByText(/always thinks: 0 is not accepted/)).toBeVisible();
  });
});
