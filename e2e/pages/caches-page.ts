/** Page object of the Cache manager. */
import { expect, type Locator, type Page } from "@playwright/test";

export class CachesPage {
  readonly form: Locator;
  readonly size: Locator;
  readonly createButton: Locator;
  readonly table: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole("form", { name: "Create a cache" });
    this.size = page.getByTestId("cache-size");
    this.createButton = page.getByRole("button", { name: "Create cache" });
    this.table = page.getByRole("table");
  }

  async open(query = ""): Promise<void> {
    await this.page.goto(`/caches${query}`);
    await expect(this.page.getByRole("heading", { name: "Caches", level: 1 })).toBeVisible();
  }

  row(displayName: string): Locator {
    return this.table.getByRole("row", { name: displayName, exact: true });
  }

  /** The size the form counted before creating (tokens). */
  async countedSize(): Promise<number> {
    const value = await this.size.locator("[data-cache-size]").getAttribute("data-cache-size");
    return Number(value);
  }
}
