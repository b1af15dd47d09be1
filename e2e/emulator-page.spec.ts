import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

/**
 * The studio's emulator page against the local engine: the session's scenarios (add as JSON
 * with the server's validation shown, edit, delete) and its live request log with each
 * request's body and answer. Other browser specs share the studio's session owner, so this
 * spec's scenario matches only its own probe text and is deleted at the end.
 */

const PROBE = `emulator page probe ${Date.now()}`;

test("scenarios are added, refused with the field named, edited and deleted; the request log shows the body and answer", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto("/emulator");
  await expect(page.getByRole("heading", { name: "Emulator", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Emulator" })).toHaveAttribute(
    "aria-current",
    "page",
  );

  const editor = page.getByLabel("New scenario as JSON");
  await editor.fill("{ not json");
  await expect(page.getByText(/^Not JSON yet/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Add scenario" })).toBeDisabled();

  await editor.fill(
    JSON.stringify({ name: "probe", match: { textMatches: "(x)\\1" }, respond: { text: "never" } }),
  );
  await page.getByRole("button", { name: "Add scenario" }).click();
  await expect(page.getByText(/match\.textMatches: uses a backreference/)).toBeVisible();

  await editor.fill(
    JSON.stringify({
      name: "probe",
      match: { textContains: PROBE },
      respond: { text: "Scripted on the page." },
    }),
  );
  await page.getByRole("button", { name: "Add scenario" }).click();
  const row = page.getByRole("row", { name: /probe/ });
  await expect(row).toBeVisible();

  const answer = await page.evaluate(async (text) => {
    const response = await fetch("/v1beta/models/gemini-2.5-flash:generateContent", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ parts: [{ text }] }] }),
    });
    return (await response.json()) as {
      candidates: Array<{ content: { parts: Array<{ text: string }> } }>;
    };
  }, PROBE);
  expect(answer.candidates[0]!.content.parts[0]!.text).toBe("Scripted on the page.");

  const entry = page.getByRole("listitem").filter({ hasText: "scenario probe" }).first();
  await expect(entry).toBeVisible({ timeout: 10_000 });
  await entry.locator("summary").click();
  await expect(entry.getByText(PROBE)).toBeVisible();
  await expect(entry.getByText("Scripted on the page.")).toBeVisible();

  const accessibility = await new AxeBuilder({ page }).analyze();
  expect(accessibility.violations).toEqual([]);

  await row.getByRole("button", { name: /^Edit/ }).click();
  const edited = page.getByLabel(/^Scenario scn_.* as JSON$/);
  await edited.fill(
    JSON.stringify({
      name: "probe edited",
      match: { textContains: PROBE },
      respond: { text: "Edited." },
    }),
  );
  await page.getByRole("button", { name: "Save scenario" }).click();
  const editedRow = page.getByRole("row", { name: /probe edited/ });
  await expect(editedRow).toBeVisible();
  await editedRow.getByRole("button", { name: /^Delete/ }).click();
  await expect(page.getByRole("row", { name: /probe/ })).toHaveCount(0);
});
