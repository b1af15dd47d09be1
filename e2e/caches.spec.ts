import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { wordsText } from "./fixtures/media";
import { CachesPage } from "./pages/caches-page";
import { ChatPage } from "./pages/chat-page";

/** The Cache manager against the local engine: create, list, use in a chat, extend, delete. */

test("a cache made from a conversation is listed with its size, used in a new chat (cached tokens in the usage), extended and deleted", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(200);
  // A new chat starts from the last one's settings; a cache carries its own system instruction.
  await chat.fillSetting("System instruction", "Answer in plain words.");
  await chat.send(`Repeat after me: ${wordsText(1200, 3)}`);
  await chat.waitForAnswerDone();
  const conversationId = chat.conversationId()!;

  await page.getByRole("link", { name: "Cache this chat…" }).click();
  await expect(page).toHaveURL(/\/caches\?conversation=/);
  const caches = new CachesPage(page);
  await expect(caches.form.getByLabel("Conversation", { exact: true })).toHaveValue(conversationId);
  // The conversation's title is suggested as the display name once it has loaded.
  await expect(caches.form.getByLabel("Display name", { exact: true })).toHaveValue(
    /^Repeat after me/,
  );
  const displayName = `harbor cache ${Date.now()}`;
  await caches.form.getByLabel("Display name", { exact: true }).fill(displayName);

  // The minimum of the chosen model is shown before creating; too small cannot be created.
  await caches.form.getByLabel("Model", { exact: true }).selectOption("models/gemini-2.5-pro");
  await expect(caches.size).toContainText("minimum for gemini-2.5-pro: 4,096");
  await expect(caches.size).toContainText("Too small");
  await expect(caches.createButton).toBeDisabled();
  await caches.form.getByLabel("Model", { exact: true }).selectOption("models/gemini-2.5-flash");
  await expect(caches.size).toContainText("minimum for gemini-2.5-flash: 1,024");
  await expect(caches.size).not.toContainText("updating");
  const size = await caches.countedSize();
  expect(size).toBeGreaterThan(1024);

  await caches.createButton.click();
  await expect(
    page.getByRole("status").filter({ hasText: "Created cachedContents/" }),
  ).toBeVisible();
  const row = caches.row(displayName);
  await expect(row).toBeVisible();
  await expect(row.locator("[data-cache-tokens]")).toHaveAttribute(
    "data-cache-tokens",
    String(size),
  );
  await expect(row).toContainText("gemini-2.5-flash");
  await expect(row.locator("time")).toContainText(/in (59 min|1 h 0 min)/);
  const expiryBefore = Date.parse((await row.locator("time").getAttribute("datetime"))!);

  await row.getByRole("link", { name: `Use in a new chat: ${displayName}` }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByRole("group", { name: "Attached cache" })).toContainText(displayName);
  await chat.openSettings();
  await expect(chat.setting("System instruction")).toHaveValue("");
  await chat.limitAnswers(40);
  await chat.prompt.fill("What came after the copper mines?");
  await expect(page.locator("[data-cached-tokens]")).toHaveAttribute(
    "data-cached-tokens",
    String(size),
  );
  await chat.prompt.press("Enter");
  await chat.waitForAnswerDone();
  await expect(chat.lastAnswer().locator("[data-usage]")).toContainText(
    `cached ${size.toLocaleString("en")}`,
  );

  await caches.open();
  await caches
    .row(displayName)
    .getByRole("button", { name: `Extend: ${displayName}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Change the expiry of ${displayName}` });
  await dialog.getByRole("button", { name: "Extend by 1 hour" }).click();
  await expect(dialog).toBeHidden();
  await expect
    .poll(async () =>
      Date.parse((await caches.row(displayName).locator("time").getAttribute("datetime"))!),
    )
    .toBe(expiryBefore + 3_600_000);
  await expect(caches.row(displayName).locator("time")).toContainText(/in (1 h 59 min|2 h 0 min)/);

  await caches
    .row(displayName)
    .getByRole("button", { name: `Delete ${displayName}` })
    .click();
  await page
    .getByRole("dialog", { name: "Delete this cache?" })
    .getByRole("button", { name: "Delete cache" })
    .click();
  await expect(caches.row(displayName)).toHaveCount(0);
});

test("a name typed while the conversation loads is kept; a cache whose time runs out is shown as expired; the service's refusals are shown as sent", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const caches = new CachesPage(page);
  await caches.open();
  // Files and conversations may be absent: cache a conversation made through the API.
  const created = await page.request.post("/api/conversations", {
    data: {
      title: "Lighthouse log",
      settings: {
        model: "models/gemini-2.5-flash",
        systemInstruction: "",
        generationConfig: {},
        safetySettings: [],
      },
    },
  });
  const conversation = (await created.json()) as { id: string };
  await page.request.post(`/api/conversations/${conversation.id}/messages`, {
    data: {
      messages: [
        {
          id: "m1",
          role: "user",
          content: { role: "user", parts: [{ text: wordsText(1500, 4) }] },
        },
      ],
    },
  });
  // The person starts on the display name while the conversation is still on its way (held
  // back until then): the name they type is kept as typed, with no title put in front of it.
  let releaseConversation!: () => void;
  const released = new Promise<void>((resolve) => (releaseConversation = resolve));
  await page.route(`**/api/conversations/${conversation.id}`, async (route) => {
    await released;
    await route.continue();
  });
  await caches.open(`?conversation=${conversation.id}`);
  const displayName = `short-lived ${Date.now()}`;
  const displayNameField = caches.form.getByLabel("Display name", { exact: true });
  await displayNameField.focus();
  releaseConversation();
  // Counted with the conversation's messages: the form has taken the loaded conversation in.
  await expect.poll(() => caches.countedSize()).toBeGreaterThan(1024);
  await displayNameField.pressSequentially(displayName);
  await expect(displayNameField).toHaveValue(displayName);
  // Long enough for the create and the list's refetch on a loaded machine: the service leaves
  // expired caches out of lists, so a row fetched after expiry is never shown at all.
  await caches.form.getByLabel("Time to live amount").fill("0.5");
  await caches.form.getByLabel("Time to live unit").selectOption("minutes");
  await caches.createButton.click();
  const row = caches.row(displayName);
  await expect(row).toBeVisible();
  await expect(row.getByRole("link", { name: `Use in a new chat: ${displayName}` })).toBeVisible();
  await expect(row).toContainText("Expired", { timeout: 45_000 });
  await expect(row.getByRole("link", { name: `Use in a new chat: ${displayName}` })).toHaveCount(0);

  // Deleting an expired cache: the service says it is gone, and the page says so plainly.
  await row.getByRole("button", { name: `Delete ${displayName}` }).click();
  await page
    .getByRole("dialog", { name: "Delete this cache?" })
    .getByRole("button", { name: "Delete cache" })
    .click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Could not delete the cache" }),
  ).toContainText("CachedContent not found");
});

test("the Caches page works at phone width and has no serious accessibility violations", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const caches = new CachesPage(page);
  await caches.open();
  await expect(caches.form).toBeVisible();
  expect(await page.locator("main").evaluate((main) => main.scrollWidth <= main.clientWidth)).toBe(
    true,
  );
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === "serious" || violation.impact === "critical",
  );
  expect(
    serious.map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    ),
  ).toEqual([]);
});
