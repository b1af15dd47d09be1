import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { makePdf, makePng, makeWav } from "@/lib/testing/media-fixtures";
import { ChatPage } from "./pages/chat-page";
import { attachmentCard, dropFiles } from "./pages/files-page";
import { DEVELOPMENT_KEY, localServer } from "./support/servers";

/**
 * Local engine: attachments keep their identity in the transcript, conversations
 * that worked keep working (speech sent back in history, a cache that died), export and
 * import (and imports refused whole when they are wrong).
 */

function unique(prefix: string, extension: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}.${extension}`;
}

async function callJson(
  page: Page,
  path: string,
  init: { method?: string; body?: string } = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  return page.evaluate(
    async ({ path, init }) => {
      const response = await fetch(path, {
        method: init.method ?? "GET",
        headers: init.body !== undefined ? { "Content-Type": "application/json" } : undefined,
        body: init.body,
      });
      return { status: response.status, json: await response.json() };
    },
    { path, init },
  );
}

test("attachments keep their name, type, thumbnail, pages, player and file card in the transcript", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(30);
  const names = {
    image: unique("harbour-sketch", "png"),
    pdf: unique("tide-tables", "pdf"),
    audio: unique("foghorn", "wav"),
  };
  await dropFiles(page.getByTestId("drop-zone-new"), [
    { name: names.image, mimeType: "image/png", bytes: makePng(64, 48) },
    { name: names.pdf, mimeType: "application/pdf", bytes: await makePdf(3) },
    { name: names.audio, mimeType: "audio/wav", bytes: makeWav(2) },
  ]);
  for (const name of Object.values(names))
    await expect(attachmentCard(page, name)).toHaveAttribute("data-status", "active", {
      timeout: 30_000,
    });
  // Wait for the browser's own facts (thumbnail, length) before sending.
  await page.waitForTimeout(500);
  await chat.send("What do these show?");
  await chat.waitForAnswerDone();

  const prompt = chat.userMessages.first();
  const check = async (afterReload: boolean) => {
    const image = prompt.getByRole("figure", { name: `Attachment ${names.image}` });
    await expect(image.getByRole("img", { name: `Thumbnail of ${names.image}` })).toBeVisible();
    await expect(image).toContainText("image/png");
    const pdf = prompt.getByRole("figure", { name: `Attachment ${names.pdf}` });
    await expect(pdf).toContainText("3 pages");
    await expect(pdf).toContainText("application/pdf");
    const audio = prompt.getByRole("figure", { name: `Attachment ${names.audio}` });
    await expect(audio).toContainText("0:02");
    // The service never gives uploaded bytes back: the player is there while this page has them.
    await expect(audio.locator("audio[controls]")).toHaveCount(afterReload ? 0 : 1);
    await expect(prompt.getByText("[fileData]")).toHaveCount(0);
  };
  await check(false);
  await page.reload();
  await check(true);
  await prompt.getByRole("link", { name: `File card of ${names.pdf}` }).click();
  await expect(page).toHaveURL(/\/files\?file=files%2F/);
  const card = page.getByRole("region", { name: /^File card files\// });
  await expect(card.getByRole("heading", { name: names.pdf })).toBeVisible();
  await expect(card).toContainText("ACTIVE");
});

test("a text-to-speech chat answers its second turn, and a text model can follow it", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.openSettings();
  await chat.selectSetting("Model", "models/gemini-2.5-flash-preview-tts");
  // The speech model answers audio only (TEXT is not offered for it): choosing it sets AUDIO.
  await expect(chat.setting("AUDIO")).toBeChecked();
  for (const line of ["Good morning to the harbour", "And good night to the lighthouse"]) {
    await chat.send(line);
    await chat.waitForAnswerDone();
    await expect(chat.lastAnswer().locator('[data-inline-media="audio"]')).toHaveCount(1);
    await expect(chat.lastAnswer().getByRole("alert")).toHaveCount(0);
  }
  // The speech answers go back in history to a text model: read as 24 kHz PCM, not refused.
  // Choosing the text model clears the AUDIO it cannot answer with, and says so.
  await chat.selectSetting("Model", "models/gemini-2.5-flash");
  await expect(
    page.getByRole("alert").filter({ hasText: "Response modalities cleared" }),
  ).toBeVisible();
  await expect(chat.setting("AUDIO")).toHaveCount(0);
  await chat.limitAnswers(30);
  await chat.send("What did I ask you to say?");
  await chat.waitForAnswerDone();
  await expect(chat.lastAnswer().getByRole("alert")).toHaveCount(0);
  expect(((await chat.answerText().textContent()) ?? "").trim().length).toBeGreaterThan(0);
});

test("a chat whose cache was deleted offers to continue without the cache", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  // Made by the page's own session, so the chat may use it.
  const created = await callJson(page, "/v1beta/cachedContents", {
    method: "POST",
    body: JSON.stringify({
      model: "models/gemini-2.5-flash",
      displayName: "Harbour notes",
      contents: [
        {
          role: "user",
          parts: [{ text: "The harbour master keeps the tide tables by the door. ".repeat(250) }],
        },
      ],
      ttl: "600s",
    }),
  });
  expect(created.status).toBe(200);
  const cache = created.json as { name: string };
  await page.goto(`/chat?cache=${encodeURIComponent(cache.name)}`);
  await expect(page.getByRole("group", { name: "Attached cache" })).toContainText("Harbour notes");
  await chat.limitAnswers(20);
  await chat.send("Where are the tide tables?");
  await chat.waitForAnswerDone();
  await expect(chat.lastAnswer().getByRole("alert")).toHaveCount(0);

  expect((await callJson(page, `/v1beta/${cache.name}`, { method: "DELETE" })).status).toBe(200);
  await chat.send("And the charts?");
  await chat.waitForAnswerDone();
  const failed = chat.lastAnswer();
  await expect(failed.getByRole("alert")).toContainText("CachedContent not found");
  await expect(failed.getByRole("button", { name: "Retry" })).toBeVisible();
  await failed.getByRole("button", { name: "Continue without the cache" }).click();
  await chat.waitForAnswerDone();
  await expect(chat.lastAnswer().getByRole("alert")).toHaveCount(0);
  await expect(chat.versionPosition(chat.lastAnswer())).toHaveText("2 / 2");
  await expect(page.getByRole("group", { name: "Attached cache" })).toHaveCount(0);
});

test("a conversation exports as JSON with every version and as Markdown of the branch shown, and the JSON imports back", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(20);
  const stamp = Date.now();
  await chat.send(`**Export** me ${stamp}`);
  await chat.waitForAnswerDone();
  await chat.lastAnswer().getByRole("button", { name: "Regenerate" }).click();
  await chat.waitForAnswerDone();
  const shown = ((await chat.answerText().textContent()) ?? "").trim();
  const id = chat.conversationId()!;
  const title = `Export me ${stamp}`;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);

  const download = async (label: RegExp) => {
    const link = page.getByRole("link", { name: label });
    if (!(await link.isVisible())) await page.getByText("Export", { exact: true }).click();
    const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
    return { name: file.suggestedFilename(), text: fs.readFileSync((await file.path())!, "utf8") };
  };
  const json = await download(/as JSON/);
  expect(json.name).toMatch(/^export-me-\d+-\d{4}-\d{2}-\d{2}\.json$/);
  const archive = JSON.parse(json.text) as {
    format: string;
    conversations: { id: string; title: string; messages: { parentId: string | null }[] }[];
  };
  expect(archive.format).toBe("genstudio.conversations");
  expect(archive.conversations[0]!.id).toBe(id);
  expect(archive.conversations[0]!.messages.map((message) => message.parentId !== null)).toEqual([
    false,
    true,
    true,
  ]);
  const markdown = await download(/as Markdown/);
  expect(markdown.text).toContain(`# ${title}`);
  expect(markdown.text).toContain("## You");
  expect(markdown.text).toContain(`**Export** me ${stamp}`);
  // The branch shown: one prompt and one answer (of the two answers stored).
  expect(markdown.text.match(/^## You$/gm)).toHaveLength(1);
  expect(markdown.text.match(/^## gemini-2\.5-flash$/gm)).toHaveLength(1);

  // Imported where it already is, it is recognised and not stored again.
  await chat.sidebar.getByText("Export and import").click();
  const importFile = () =>
    page.locator("#conversation-import").setInputFiles({
      name: json.name,
      mimeType: "application/json",
      buffer: Buffer.from(json.text),
    });
  await importFile();
  const report = chat.sidebar.locator("[data-import-report]");
  await expect(report).toContainText("Imported 0 conversations.");
  await expect(report).toContainText(`“${title}” is already here, nothing new.`);
  const copies = async () =>
    ((await callJson(page, "/api/conversations")).json.conversations as { title: string }[]).filter(
      (item) => item.title === title,
    ).length;
  expect(await copies()).toBe(1);

  // Once deleted, the import brings it back whole, every version.
  expect((await callJson(page, `/api/conversations/${id}`, { method: "DELETE" })).status).toBe(200);
  await importFile();
  await expect(report).toContainText("Imported 1 conversation.");
  const list = await callJson(page, "/api/conversations");
  const copy = (list.json.conversations as { id: string; title: string }[]).find(
    (item) => item.title === title && item.id !== id,
  )!;
  await chat.open(copy.id);
  await expect(chat.versionPosition(chat.lastAnswer())).toHaveText("2 / 2");
  await expect(chat.answerText()).toHaveText(shown);
});

test("an import referring to a file the service dropped says so, and the transcript marks it expired", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  const stamp = Date.now();
  const archive = {
    format: "genstudio.conversations",
    version: 1,
    conversations: [
      {
        title: `Old photos ${stamp}`,
        createdAt: "2026-01-02T03:04:05.000Z",
        updatedAt: "2026-01-02T03:05:05.000Z",
        settings: {
          model: "models/gemini-2.5-flash",
          systemInstruction: "",
          generationConfig: {},
          safetySettings: [],
        },
        messages: [
          {
            id: "u1",
            parentId: null,
            role: "user",
            content: {
              role: "user",
              parts: [
                {
                  fileData: {
                    mimeType: "image/jpeg",
                    fileUri: `${localServer.baseUrl}/v1beta/files/gone${stamp}`,
                  },
                },
                { text: "Who is in this photo?" },
              ],
            },
            attachments: [
              {
                part: 0,
                displayName: "grandmother.jpg",
                mimeType: "image/jpeg",
                name: `files/gone${stamp}`,
                sizeBytes: 123_456,
                expirationTime: "2026-01-04T03:04:05.000Z",
              },
            ],
          },
        ],
      },
    ],
  };
  const result = await callJson(page, "/api/conversations/import", {
    method: "POST",
    body: JSON.stringify(archive),
  });
  expect(result.status).toBe(200);
  expect(result.json.notRestored).toEqual([
    {
      conversation: `Old photos ${stamp}`,
      kind: "file",
      name: `files/gone${stamp}`,
      reason: "expired or deleted: the service keeps files 48 hours",
    },
  ]);
  const [imported] = result.json.imported as { id: string }[];
  await chat.open(imported!.id);
  const figure = chat.userMessages.first().getByRole("figure", {
    name: "Attachment grandmother.jpg",
  });
  await expect(figure).toContainText("expired");
  await expect(figure).toContainText("123 KB");
  await figure.getByRole("link", { name: "File card of grandmother.jpg" }).click();
  await expect(page.locator("[data-file-gone]")).toContainText("has expired or was deleted");
});

test("a malformed, misshapen, hostile or huge import is refused with what is wrong, and nothing is stored", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  // Other specs add conversations meanwhile: what must not appear is one of these.
  const stamp = `refused${Date.now()}`;
  const stored = async () =>
    ((await callJson(page, `/api/conversations?q=${stamp}`)).json.conversations as unknown[])
      .length;
  const settings = {
    model: "models/gemini-2.5-flash",
    systemInstruction: "",
    generationConfig: {},
    safetySettings: [],
  };
  const conversation = (extra: Record<string, unknown> = {}) => ({
    title: `Fine ${stamp}`,
    createdAt: "2026-01-02T03:04:05.000Z",
    updatedAt: "2026-01-02T03:04:05.000Z",
    settings,
    messages: [{ id: "u1", parentId: null, role: "user", content: { parts: [{ text: "hi" }] } }],
    ...extra,
  });
  const archive = (conversations: unknown[]) =>
    JSON.stringify({ format: "genstudio.conversations", version: 1, conversations });
  let deep = '{"text":"x"}';
  for (let level = 0; level < 5000; level++) deep = `[${deep}]`;
  const cases: [string, string, number, RegExp][] = [
    ["malformed", '{"format": "genstudio.conversations", ', 400, /Invalid JSON payload/],
    [
      "wrong format",
      JSON.stringify({ format: "other", version: 1, conversations: [] }),
      400,
      /format/,
    ],
    [
      "wrong shape",
      archive([conversation({ messages: "not a list" })]),
      400,
      /conversations\[0\]\.messages/,
    ],
    [
      "broken tree (a second valid conversation is not stored either)",
      archive([
        conversation(),
        conversation({
          messages: [{ id: "a", parentId: "nowhere", role: "user", content: { parts: [] } }],
        }),
      ]),
      400,
      /conversations\[1\]\.messages\[0\]\.parentId/,
    ],
    [
      "script in a title",
      archive([conversation({ title: `<script>alert(1)</script> ${stamp}` })]),
      400,
      /title must be plain text/,
    ],
    [
      "deep nesting",
      `{"format":"genstudio.conversations","version":1,"conversations":[{"title":"Deep ${stamp}","messages":[{"content":{"parts":[${deep}]}}]}]}`,
      400,
      /Nesting is deeper than/,
    ],
  ];
  for (const [label, body, status, message] of cases) {
    const result = await callJson(page, "/api/conversations/import", { method: "POST", body });
    expect(result.status, label).toBe(status);
    const error = result.json.error as { message: string; status: string };
    expect(error.status, label).toBe("INVALID_ARGUMENT");
    expect(error.message, label).toMatch(message);
  }
  // 100 MB, streamed from a program (a browser would hold it whole first): refused at 64 MiB.
  const chunk = new TextEncoder().encode(" ".repeat(1024 * 1024));
  let sent = 0;
  const huge = await fetch(`${localServer.baseUrl}/api/conversations/import`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "x-goog-api-key": DEVELOPMENT_KEY },
    body: new ReadableStream({
      pull(controller) {
        if (sent++ < 100) controller.enqueue(chunk);
        else controller.close();
      },
    }),
    duplex: "half",
  } as RequestInit);
  expect(huge.status).toBe(413);
  expect(((await huge.json()) as { error: { message: string } }).error.message).toMatch(
    /An import is at most 64 MiB of JSON/,
  );
  expect(await stored()).toBe(0);
  // The same archive without its faults is stored: the refusals were about the faults.
  const fine = await callJson(page, "/api/conversations/import", {
    method: "POST",
    body: archive([conversation()]),
  });
  expect(fine.status).toBe(200);
  expect(await stored()).toBe(1);
});

test("every conversation exports at once, and an import the server refuses says why in the page and stores nothing", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(20);
  const stamp = `everything${Date.now()}`;
  const titles = [`First of all ${stamp}`, `Second of all ${stamp}`];
  for (const title of titles) {
    await chat.open();
    await chat.send(title);
    await chat.waitForAnswerDone();
  }
  const stored = async () =>
    ((await callJson(page, `/api/conversations?q=${stamp}`)).json.conversations as unknown[])
      .length;
  await expect.poll(stored).toBe(2);

  const transfer = chat.sidebar.getByText("Export and import");
  await transfer.click();
  const download = async (name: string) => {
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      chat.sidebar.getByRole("link", { name }).click(),
    ]);
    return { name: file.suggestedFilename(), text: fs.readFileSync((await file.path())!, "utf8") };
  };
  const json = await download("Export all as JSON");
  expect(json.name).toMatch(/^genstudio-conversations-\d{4}-\d{2}-\d{2}\.json$/);
  const archive = JSON.parse(json.text) as {
    format: string;
    conversations: { title: string; messages: { role: string }[] }[];
  };
  expect(archive.format).toBe("genstudio.conversations");
  for (const title of titles) {
    const found = archive.conversations.find((conversation) => conversation.title === title);
    expect(found?.messages.map((message) => message.role)).toEqual(["user", "model"]);
  }
  const markdown = await download("Export all as Markdown");
  expect(markdown.name).toMatch(/^genstudio-conversations-\d{4}-\d{2}-\d{2}\.md$/);
  for (const title of titles) expect(markdown.text).toContain(`# ${title}`);

  // Refused imports, through the page: the reason is shown, nothing is stored.
  const ours = archive.conversations.filter((conversation) => titles.includes(conversation.title));
  const refused: [string, string, RegExp][] = [
    ["broken.json", '{"format": "genstudio.conversations", ', /Invalid JSON payload/],
    [
      "hostile.json",
      JSON.stringify({
        ...archive,
        conversations: [...ours, { ...ours[0]!, title: `<img src=x onerror=alert(1)> ${stamp}` }],
      }),
      /title must be plain text/,
    ],
  ];
  for (const [name, text, reason] of refused) {
    await chat.page.locator("#conversation-import").setInputFiles({
      name,
      mimeType: "application/json",
      buffer: Buffer.from(text),
    });
    const alert = chat.sidebar.getByRole("alert");
    await expect(alert).toContainText("Nothing was imported:");
    await expect(alert).toContainText(reason);
    await expect(chat.sidebar.locator("[data-import-report]")).toHaveCount(0);
    expect(await stored()).toBe(2);
  }
  // No markup of the hostile title reached the page.
  expect(await page.locator("img[src=x]").count()).toBe(0);
});
