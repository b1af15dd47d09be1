import { expect, test } from "@playwright/test";
import { expectNoSeriousViolations } from "./pages/answer-metadata";
import { CachesPage } from "./pages/caches-page";
import {
  FilesPage,
  attachmentCard,
  dropFiles,
  dropGeneratedWav,
  throttleUpload,
} from "./pages/files-page";

/**
 * Files page polish: Remove and Delete tell apart; the table fits a phone;
 * an upload cut off by the network says the connection was lost.
 */

test("Remove (off the list) and Delete (the file) are told apart, and the table fits 390 px", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const files = new FilesPage(page);
  await files.open();
  const name = `polish-${Date.now()}.txt`;
  await dropFiles(files.dropZone, [
    { name, mimeType: "text/plain", bytes: new TextEncoder().encode("A short note.") },
  ]);
  await expect(files.row(name)).toBeVisible();
  const remove = files.uploads.getByRole("button", { name: `Remove ${name}` });
  const removeName = await remove.getAttribute("aria-label");
  expect(removeName).toBe(`Remove ${name} (the file is kept)`);
  const deleteButton = files.row(name).getByRole("button", { name: `Delete ${name}` });
  await expect(deleteButton).toHaveAttribute("title", "Deletes the file from the server");
  const colours = await Promise.all(
    [remove, deleteButton].map((button) =>
      button.evaluate((element) => getComputedStyle(element).color),
    ),
  );
  expect(colours[0]).not.toBe(colours[1]);
  // Nothing sticks out sideways at phone width.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(overflow).toBeLessThanOrEqual(390);
  await expect(deleteButton).toBeInViewport();
  await expectNoSeriousViolations(page, "main");
});

test("an upload cut off by going offline says the connection was lost, then goes on by itself", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const files = new FilesPage(page);
  await files.open();
  const commands: string[] = [];
  page.on("request", (request) => {
    const command = request.headers()["x-goog-upload-command"];
    if (command && request.url().includes("/upload/v1beta/files")) commands.push(command);
  });
  await throttleUpload(page, 1_000_000);
  const name = `offline-${Date.now()}.wav`;
  const size = 10_000_000;
  await dropGeneratedWav(files.dropZone, name, size, 7);
  const card = attachmentCard(page, name);
  const bar = card.getByRole("progressbar", { name: `Upload of ${name}` });
  await expect
    .poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 30_000 })
    .toBeGreaterThan(2_000_000);

  await throttleUpload(page, 1_000_000, true);
  // At once, while the uploader still retries: the card says why nothing moves.
  await expect(card.getByRole("status")).toContainText("Connection lost");
  // Once the retries are spent: interrupted, with what the session holds.
  await expect(card).toHaveAttribute("data-status", "interrupted", { timeout: 30_000 });
  await expect(card.getByRole("alert")).toContainText(
    /^Connection lost: [\d.]+ [KM]B of 10\.0 MB are on the server\. The upload continues when the connection is back\.$/,
  );
  await expectNoSeriousViolations(page, "main");

  // Back online: the same session goes on from what it holds, without a click.
  await throttleUpload(page, null);
  await expect(card).toHaveAttribute("data-status", "active", { timeout: 60_000 });
  expect(commands.filter((command) => command === "start")).toHaveLength(1);
  expect(commands).toContain("query");
});

test("dark-mode secondary text keeps 4.5:1 on the Files and Caches pages, with something listed", async ({
  page,
}) => {
  const caches = new CachesPage(page);
  await caches.open();
  // Made by the page's own session, so the page lists it.
  const displayName = `Contrast ${Date.now()}`;
  const status = await page.evaluate(
    async (name) =>
      (
        await fetch("/v1beta/cachedContents", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            model: "models/gemini-2.5-flash",
            displayName: name,
            contents: [
              { role: "user", parts: [{ text: "Secondary text in the dark. ".repeat(200) }] },
            ],
            ttl: "600s",
          }),
        })
      ).status,
    displayName,
  );
  expect(status).toBe(200);
  await caches.open();
  await expect(caches.table.getByText(displayName)).toBeVisible();
  // Light and dark, axe's colour-contrast rule included (4.5:1 for small text).
  await expectNoSeriousViolations(page, "main");

  const files = new FilesPage(page);
  await files.open();
  await dropFiles(files.dropZone, [
    {
      name: `contrast-${Date.now()}.txt`,
      mimeType: "text/plain",
      bytes: new TextEncoder().encode("Small grey words."),
    },
  ]);
  await expect(page.getByRole("table")).toBeVisible();
  await expectNoSeriousViolations(page, "main");
});
