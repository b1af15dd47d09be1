import { expect, test } from "@playwright/test";
import { expectNoSeriousViolations } from "./pages/answer-metadata";
import { FilesPage, dropFiles } from "./pages/files-page";

/** Files page polish (issue 18 item 9): Remove and Delete tell apart; the table fits a phone. */

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
