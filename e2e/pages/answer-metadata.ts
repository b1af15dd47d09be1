/**
 * What a person sees of an answer's metadata, checked the same way whichever mode the
 * answer came from (the local engine, or the service's recorded answers through the gateway).
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";

export const utf8Bytes = (text: string) => Buffer.byteLength(text, "utf8");

/**
 * No serious or critical accessibility violation in the answers (or in what `include` selects,
 * e.g. a dialog), in light and dark.
 */
export async function expectNoSeriousViolations(
  page: Page,
  include = "[aria-label='Answer']",
): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    await page.evaluate(
      (dark) => document.documentElement.classList.toggle("dark", dark),
      scheme === "dark",
    );
    // The search entry point is the service's own HTML in a script-less sandbox: axe cannot run inside it, and it is not ours to fix.
    const results = await new AxeBuilder({ page })
      .include(include)
      .exclude("iframe[data-search-entry-point]")
      .analyze();
    const serious = results.violations.filter(
      (violation) => violation.impact === "serious" || violation.impact === "critical",
    );
    expect(
      serious.map(
        (violation) =>
          `${scheme}: ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      ),
    ).toEqual([]);
  }
}

/**
 * One citation: the cited span marked, a `[1]` marker whose source shows on focus, and the
 * list under the answer with the source and the span's byte range in the UTF-8 answer.
 */
export async function expectSingleCitation(
  page: Page,
  answer: Locator,
  cited: { span: string; start: number; source: string | RegExp },
): Promise<void> {
  await expect(answer.locator('mark[data-cited="citation"]')).toHaveText(cited.span);
  const marker = answer.locator('a[data-marker="citation"]');
  await expect(marker).toHaveText("[1]");
  await marker.focus();
  const tooltip = answer.getByRole("tooltip");
  await expect(tooltip).toBeVisible();
  const description =
    typeof cited.source === "string"
      ? `Citation 1: ${cited.source}`
      : new RegExp(`^Citation 1: .*${cited.source.source}`);
  await expect(tooltip).toHaveText(description);
  await expect(marker).toHaveAccessibleDescription(description);
  const list = answer.getByRole("region", { name: "Citations" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("listitem")).toContainText(
    `bytes ${cited.start}–${cited.start + utf8Bytes(cited.span)}`,
  );
  await expect(list.getByRole("listitem").locator("q")).toHaveText(cited.span);
  // The marker leads to the list entry.
  await page.keyboard.press("Enter");
  await expect(list.getByRole("listitem")).toBeFocused();
}

/** Opens the token heat map and checks that its tokens spell `text`; returns the token locator. */
export async function openHeatMap(answer: Locator, text: string): Promise<Locator> {
  const toggle = answer.getByRole("button", { name: "Token heat map" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const tokens = answer.locator("[data-token-probability]");
  await expect.poll(async () => (await tokens.allTextContents()).join("")).toBe(text);
  return tokens;
}

/** The visible description of the focused heat-map token. */
export function focusedTokenDescription(answer: Locator): Locator {
  return answer.getByRole("tooltip").filter({ visible: true });
}

/** An `<audio>` the browser can decode, with the duration it decoded, in seconds. */
export async function audioDuration(audio: Locator): Promise<number> {
  await expect(audio).toHaveAttribute("src", /^blob:/);
  let seconds = -1;
  await expect
    .poll(async () => {
      seconds = await audio.evaluate((element: HTMLAudioElement) =>
        Number.isFinite(element.duration) ? element.duration : -1,
      );
      return seconds;
    })
    .toBeGreaterThan(0);
  return seconds;
}
