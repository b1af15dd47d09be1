import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page, type Request } from "@playwright/test";
import { makePdf } from "@/lib/testing/media-fixtures";
import { corruptPng, makePng, makeWav, serviceSha256, wordsText } from "./fixtures/media";
import { ChatPage } from "./pages/chat-page";
import {
  attachmentCard,
  dropFiles,
  dropGeneratedWav,
  FilesPage,
  generatedWav,
  recordAttachmentStates,
  recordedStates,
  throttleUpload,
} from "./pages/files-page";

/**
 * The upload panel (chat composer and Files page) against the local engine: real drops and
 * pastes, the resumable protocol with real-byte progress, PROCESSING → ACTIVE, FAILED,
 * cancel, resume after a dropped connection, previews, and sending a prompt that uses a file.
 */

function unique(prefix: string, extension: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}.${extension}`;
}

/** The upload commands the page sends (start, upload, "upload, finalize", query, cancel). */
function recordUploadCommands(page: Page): string[] {
  const commands: string[] = [];
  page.on("request", (request: Request) => {
    if (!request.url().includes("/upload/v1beta/files")) return;
    const command = request.headers()["x-goog-upload-command"];
    if (command) commands.push(command);
  });
  return commands;
}

/** The answers to upload commands: command, HTTP status and X-Goog-Upload-Status. */
function recordUploadAnswers(
  page: Page,
): { command: string; status: number; uploadStatus: string | undefined }[] {
  const answers: { command: string; status: number; uploadStatus: string | undefined }[] = [];
  page.on("response", (response) => {
    const command = response.request().headers()["x-goog-upload-command"];
    if (!command || !response.url().includes("/upload/v1beta/files")) return;
    answers.push({
      command,
      status: response.status(),
      uploadStatus: response.headers()["x-goog-upload-status"],
    });
  });
  return answers;
}

async function promptTokens(chat: ChatPage): Promise<number> {
  const usage = await chat.lastAnswer().locator("[data-usage]").innerText();
  return Number(/prompt\s+([\d,]+)/.exec(usage)?.[1]?.replace(/,/g, "") ?? "NaN");
}

/** The saved prompt of a conversation (saves run in the background: wait for it). */
async function storedPrompt(
  page: Page,
  conversationId: string,
): Promise<{ parts: Record<string, unknown>[] }> {
  let content: { parts: Record<string, unknown>[] } | undefined;
  await expect
    .poll(async () => {
      const response = await page.request.get(`/api/conversations/${conversationId}`);
      content = (
        (await response.json()) as { messages: { content: { parts: Record<string, unknown>[] } }[] }
      ).messages[0]?.content;
      return content !== undefined;
    })
    .toBe(true);
  return content!;
}

test("a file dropped on the composer uploads with rising progress, is PROCESSING then ACTIVE, and a message about it is answered", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(80);
  await chat.prompt.fill("Describe this recording of the harbor in one sentence.");
  const name = unique("harbor", "wav");
  const clip = makeWav(120); // 1.92 MB, 120 s: 3,840 audio tokens
  await recordAttachmentStates(page, name);
  // A slow uplink (emulated by Chromium) so the progress of real bytes can be watched.
  await throttleUpload(page, 400_000);
  await dropFiles(page.getByTestId("drop-zone-new"), [
    { name, mimeType: "audio/wav", bytes: clip },
  ]);

  const card = attachmentCard(page, name);
  await expect(card).toHaveAttribute("data-status", "uploading");
  await expect(card.getByRole("progressbar")).toBeVisible();
  await expect(card).toHaveAttribute("data-status", "active", { timeout: 60_000 });
  await throttleUpload(page, null);

  const states = await recordedStates(page);
  const sent = states
    .filter((state) => state.status === "uploading" && state.sent !== null)
    .map((state) => state.sent!);
  const between = [...new Set(sent.filter((value) => value > 0 && value < clip.byteLength))];
  expect(between.length).toBeGreaterThanOrEqual(3);
  for (let index = 1; index < sent.length; index++)
    expect(sent[index]).toBeGreaterThanOrEqual(sent[index - 1]!);
  // While uploading and while PROCESSING, Send waited and said why; once ACTIVE it was enabled.
  expect(
    states
      .filter((state) => state.status === "uploading")
      .every((state) => state.sendDisabled && /is uploading/.test(state.reason ?? "")),
  ).toBe(true);
  const processing = states.filter((state) => state.status === "processing");
  expect(processing.length).toBeGreaterThan(0);
  expect(
    processing.every(
      (state) => state.sendDisabled && state.reason?.includes(`${name} is still processing`),
    ),
  ).toBe(true);
  expect(states.at(-1)).toMatchObject({ status: "active", sendDisabled: false, reason: null });

  await chat.sendButton.click();
  await expect(page).toHaveURL(/\/chat\/[A-Za-z0-9_-]+$/);
  await chat.waitForAnswerDone();
  expect((await chat.answerText().innerText()).trim().length).toBeGreaterThan(0);
  expect(await promptTokens(chat)).toBeGreaterThanOrEqual(3840);
  await expect(attachmentCard(page, name)).toHaveCount(0);

  const stored = await storedPrompt(page, chat.conversationId()!);
  const fileData = stored.parts.find((part) => "fileData" in part)?.fileData as {
    fileUri: string;
    mimeType: string;
  };
  expect(fileData.mimeType).toBe("audio/wav");
  expect(fileData.fileUri).toMatch(/\/v1beta\/files\/[a-z0-9-]+$/);
});

test("a recording that stays PROCESSING keeps Send waiting and says why, then sends once ACTIVE", async ({
  page,
}) => {
  // The local engine probes a generated clip in milliseconds; holding the browser's status
  // polls (a slow link to a slow probe) keeps the file PROCESSING as the page knows it.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let heldPolls = 0;
  await page.route(/\/v1beta\/files\/[a-z0-9-]+$/, async (route) => {
    if (route.request().method() !== "GET") return route.continue();
    heldPolls++;
    await released;
    await route.continue();
  });
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(60);
  await chat.prompt.fill("What is said in this clip?");
  const name = unique("voice-note", "wav");
  await dropFiles(page.getByTestId("drop-zone-new"), [
    { name, mimeType: "audio/wav", bytes: makeWav(20) },
  ]);

  const card = attachmentCard(page, name);
  await expect(card).toHaveAttribute("data-status", "processing");
  await expect(card).toContainText("PROCESSING");
  await expect.poll(() => heldPolls).toBeGreaterThan(0);
  await expect(chat.sendButton).toBeDisabled();
  await expect(page.locator("#send-blocked-reason")).toHaveText(
    `Waiting for 1 file to become ACTIVE: ${name} is still processing.`,
  );
  await expect(chat.sendButton).toHaveAttribute("aria-describedby", "send-blocked-reason");
  await chat.prompt.press("Enter");
  await expect(chat.userMessages).toHaveCount(0);
  await expect(card).toHaveAttribute("data-status", "processing");

  release();
  await expect(card).toHaveAttribute("data-status", "active");
  await expect(chat.sendButton).toBeEnabled();
  await expect(page.locator("#send-blocked-reason")).toHaveCount(0);
  await chat.prompt.press("Enter");
  await chat.waitForAnswerDone();
  await expect(chat.userMessages).toHaveCount(1);
});

test("a corrupt file shows FAILED with the service's error and can be removed", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.prompt.fill("What is in this picture?");
  const name = unique("broken", "png");
  await dropFiles(page.getByTestId("drop-zone-new"), [
    { name, mimeType: "image/png", bytes: corruptPng() },
  ]);
  const card = attachmentCard(page, name);
  await expect(card).toHaveAttribute("data-status", "failed");
  await expect(card.getByRole("alert")).toContainText(
    /FAILED: The image is not a readable image\/png image/,
  );
  await expect(chat.sendButton).toBeDisabled();
  await expect(page.locator("#send-blocked-reason")).toHaveText(
    `Remove the file that failed (${name}) before sending.`,
  );
  await card.getByRole("button", { name: `Remove ${name}` }).click();
  await expect(card).toHaveCount(0);
  await expect(chat.sendButton).toBeEnabled();
});

test("an upload can be cancelled midway: the session is cancelled and no file is created", async ({
  page,
}) => {
  const files = new FilesPage(page);
  await files.open();
  const commands = recordUploadCommands(page);
  const answers = recordUploadAnswers(page);
  const sessionUrl = page.waitForResponse(
    (response) =>
      response.url().endsWith("/upload/v1beta/files") && response.request().method() === "POST",
  );
  await throttleUpload(page, 1_000_000);
  const name = unique("long-interview", "wav");
  const size = 12_000_000;
  await dropGeneratedWav(files.dropZone, name, size, 7);
  const card = attachmentCard(page, name);
  const bar = card.getByRole("progressbar", { name: `Upload of ${name}` });
  await expect
    .poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 30_000 })
    .toBeGreaterThan(1_000_000);
  expect(Number(await bar.getAttribute("aria-valuenow"))).toBeLessThan(size);
  await card.getByRole("button", { name: `Cancel upload of ${name}` }).click();
  await expect(card).toHaveCount(0);
  await expect.poll(() => commands.includes("cancel")).toBe(true);
  await expect
    .poll(() => JSON.stringify(answers.filter((answer) => answer.command === "cancel")))
    .toContain('"status":200,"uploadStatus":"cancelled"');
  await throttleUpload(page, null);

  const uploadUrl = (await sessionUrl).headers()["x-goog-upload-url"]!;
  const query = await page.request.post(uploadUrl, {
    headers: { "X-Goog-Upload-Command": "query" },
  });
  expect(query.status()).toBe(400);
  expect(await query.text()).toMatch(/cancelled/);
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(files.row(name)).toHaveCount(0);
});

test("a dropped connection mid-upload is resumed from the bytes the session holds (query)", async ({
  page,
}) => {
  const files = new FilesPage(page);
  await files.open();
  const commands = recordUploadCommands(page);
  const failed: string[] = [];
  page.on("requestfailed", (request) => {
    if (request.url().includes("upload_id=")) failed.push(request.failure()?.errorText ?? "failed");
  });
  await throttleUpload(page, 1_000_000);
  const name = unique("survey", "wav");
  const size = 10_000_000;
  await dropGeneratedWav(files.dropZone, name, size, 11);
  const card = attachmentCard(page, name);
  const bar = card.getByRole("progressbar", { name: `Upload of ${name}` });
  await expect
    .poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 30_000 })
    .toBeGreaterThan(2_000_000);

  // The network goes away mid-chunk, then comes back.
  await throttleUpload(page, 1_000_000, true);
  await expect.poll(() => failed.length, { timeout: 15_000 }).toBeGreaterThan(0);
  await throttleUpload(page, null);
  await expect(card).toHaveAttribute("data-status", "active", { timeout: 60_000 });
  expect(commands).toContain("query");
  expect(commands.filter((command) => command === "start")).toHaveLength(1);

  await expect(files.row(name)).toBeVisible();
  const listed = await page.request.get("/v1beta/files?pageSize=100");
  const file = (
    (await listed.json()) as {
      files: { displayName: string; sizeBytes: string; sha256Hash: string; state: string }[];
    }
  ).files.find((item) => item.displayName === name)!;
  expect(file.sizeBytes).toBe(String(size));
  expect(file.sha256Hash).toBe(serviceSha256(generatedWav(size, 11)));
});

test("the Files page lists uploads with type, size, state and expiry; attaches one to a chat; deletes with confirmation", async ({
  page,
}) => {
  const files = new FilesPage(page);
  await files.open();
  const name = unique("field-notes", "txt");
  const text = `Field notes. ${wordsText(200)}`;
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Choose files…" }).click();
  await (await chooser).setFiles({ name, mimeType: "text/plain", buffer: Buffer.from(text) });

  const card = attachmentCard(page, name);
  await expect(card).toHaveAttribute("data-status", "active");
  await expect(card.getByLabel(`Start of ${name}`)).toContainText("Field notes.");
  const row = files.row(name);
  await expect(row).toBeVisible();
  await expect(row).toContainText("text/plain");
  await expect(row).toContainText(`${(Buffer.byteLength(text) / 1000).toFixed(1)} KB`);
  await expect(row).toContainText("ACTIVE");
  await expect(row.locator("time")).toContainText(/in (1 d 23 h|2 d 0 h)/);

  await row.getByRole("link", { name: `Attach to chat: ${name}` }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(attachmentCard(page, name)).toHaveAttribute("data-status", "active");

  await files.open();
  await files
    .row(name)
    .getByRole("button", { name: `Delete ${name}` })
    .click();
  const dialog = page.getByRole("dialog", { name: "Delete this file?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(files.row(name)).toBeVisible();
  await files
    .row(name)
    .getByRole("button", { name: `Delete ${name}` })
    .click();
  await dialog.getByRole("button", { name: "Delete file" }).click();
  await expect(files.row(name)).toHaveCount(0);
  expect((await page.request.get(`/v1beta/files?pageSize=100`)).ok()).toBe(true);
});

test("previews: image thumbnail, audio player, PDF page count and text snippet", async ({
  page,
}) => {
  const files = new FilesPage(page);
  await files.open();
  const names = {
    image: unique("sketch", "png"),
    audio: unique("tone", "wav"),
    pdf: unique("report", "pdf"),
    text: unique("readme", "md"),
  };
  await dropFiles(files.dropZone, [
    { name: names.image, mimeType: "image/png", bytes: makePng(64, 48) },
    { name: names.audio, mimeType: "audio/wav", bytes: makeWav(2) },
    { name: names.pdf, mimeType: "application/pdf", bytes: await makePdf(3) },
    {
      name: names.text,
      mimeType: "",
      bytes: Buffer.from("# Readme\nThe lighthouse keeper's log."),
    },
  ]);
  await expect(
    attachmentCard(page, names.image).getByRole("img", { name: `Preview of ${names.image}` }),
  ).toBeVisible();
  await expect(attachmentCard(page, names.audio).locator("audio[controls]")).toHaveCount(1);
  await expect(attachmentCard(page, names.pdf)).toContainText("PDF · 3 pages");
  await expect(attachmentCard(page, names.text).getByLabel(`Start of ${names.text}`)).toContainText(
    "The lighthouse keeper's log.",
  );
  await expect(attachmentCard(page, names.text)).toContainText("text/markdown");
  for (const name of Object.values(names))
    await expect(attachmentCard(page, name)).toHaveAttribute("data-status", "active", {
      timeout: 30_000,
    });
});

test("a pasted image is sent inline when the person chooses so", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(40);
  await page.getByLabel(/Send images under .* inline/).check();
  await chat.prompt.fill("What colours does this gradient have?");
  const png = Buffer.from(makePng(32, 32)).toString("base64");
  await chat.prompt.evaluate((element, base64) => {
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], "pasted-gradient.png", { type: "image/png" }));
    element.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, png);
  const card = attachmentCard(page, "pasted-gradient.png");
  await expect(card).toHaveAttribute("data-status", "inline");
  await expect(card).toContainText("Sent inline with the prompt");
  await chat.sendButton.click();
  await chat.waitForAnswerDone();
  const stored = await storedPrompt(page, chat.conversationId()!);
  const inline = stored.parts.find((part) => "inlineData" in part)?.inlineData as {
    mimeType: string;
    data: string;
  };
  expect(inline).toEqual({ mimeType: "image/png", data: png });
});

test("the Files page works at phone width and has no serious accessibility violations", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const files = new FilesPage(page);
  await files.open();
  await dropFiles(files.dropZone, [
    {
      name: unique("phone", "txt"),
      mimeType: "text/plain",
      bytes: Buffer.from("small text on a small screen"),
    },
  ]);
  await expect(page.getByRole("table")).toBeVisible();
  // The page's own content fits; the wide table scrolls inside its own box.
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
