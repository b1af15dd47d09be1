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

test("the theme setting: light and dark are remembered, System follows the device live", async ({
  page,
}) => {
  const dark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  const theme = page.getByRole("combobox", { name: "Theme" });
  await expect(theme).toHaveValue("system");
  expect(await dark()).toBe(false);
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(dark).toBe(true);

  await theme.selectOption("light");
  await expect.poll(dark).toBe(false);
  await page.reload();
  await expect(theme).toHaveValue("light");
  expect(await dark()).toBe(false);

  await theme.selectOption("dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.reload();
  await expect(theme).toHaveValue("dark");
  await expect.poll(dark).toBe(true);

  await theme.selectOption("system");
  await expect.poll(dark).toBe(false);
  await page.reload();
  await expect(theme).toHaveValue("system");
});

test("the page names its icons and manifest, and each one is served as what it says", async ({
  page,
  request,
}) => {
  await page.goto("/");
  const linked = await page
    .locator('head link[rel="icon"], head link[rel="apple-touch-icon"], head link[rel="manifest"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute("href")!));
  expect(linked).toEqual(
    expect.arrayContaining([
      "/icon.svg",
      "/icon-light-32.png",
      "/icon-dark-32.png",
      "/apple-touch-icon.png",
      "/manifest.webmanifest",
    ]),
  );
  const manifest = await (await request.get("/manifest.webmanifest")).json();
  expect(manifest.name).toBe("Genstudio");
  const icons: { src: string; type: string }[] = manifest.icons;
  for (const path of [...linked, ...icons.map((icon) => icon.src), "/favicon.ico"]) {
    const response = await request.get(path.split("?")[0]!);
    expect(response.status(), path).toBe(200);
    const type = response.headers()["content-type"] ?? "";
    if (path.endsWith(".png")) expect(type, path).toContain("image/png");
    if (path.endsWith(".svg")) expect(type, path).toContain("image/svg+xml");
    if (path.endsWith(".ico")) expect(type, path).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  }
});
