import { expect, test } from "@playwright/test";

test("the home page loads, opens a session and shows the local engine mode", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("mode-badge")).toHaveText("Local engine");
  await expect(
    page.getByRole("heading", { name: "Genstudio", level: 1, exact: true }),
  ).toBeVisible();
  const navigation = page.getByRole("navigation", { name: "Main" });
  for (const name of ["Chat", "Files", "Caches"]) {
    await expect(navigation.getByRole("link", { name })).toBeVisible();
  }
  await expect(page.getByText("genstudio-dev-key")).toBeVisible();
});

test("the dark mode toggle switches and remembers the scheme", async ({ page }) => {
  await page.goto("/");
  const toggle = page.getByRole("button", { name: "Dark mode" });
  const wasDark = await page.evaluate(() => document.documentElement.classList.contains("dark"));
  await toggle.click();
  await expect
    .poll(() => page.evaluate(() => document.documentElement.classList.contains("dark")))
    .toBe(!wasDark);
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => document.documentElement.classList.contains("dark")))
    .toBe(!wasDark);
});
