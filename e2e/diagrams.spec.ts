import { expect, test, type Page } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { expectNoSeriousViolations } from "./pages/answer-metadata";

/**
 * Mermaid diagrams in answers: drawn by the sandboxed renderer frame, shown as an
 * image with the source one click away, inert when hostile, and working under a page CSP
 * without 'unsafe-eval'.
 */

const FLOWCHART = [
  "flowchart TD",
  "  accTitle: Rain decision",
  "  accDescr: What to take when it rains",
  "  A[Start] --> B{Raining?}",
  "  B -->|Yes| C[Umbrella]",
  "  B -->|No| D[Sunglasses]",
].join("\n");

function fenced(source: string): string {
  return "```mermaid\n" + source + "\n```";
}

/** Page-side record of CSP violations and dialogs (an alert would mean script ran). */
async function watchForScript(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const record: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = record;
    document.addEventListener("securitypolicyviolation", (event) =>
      record.push(
        `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber} ${event.sample}`,
      ),
    );
  });
}

test("a mermaid block is drawn as an image with its source one click away", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(400);
  await chat.send(`Repeat after me: The plan:\n\n${fenced(FLOWCHART)}\n\nThat is all.`);
  await chat.waitForAnswerDone();
  const figure = chat.answerText().locator("figure[data-diagram]");
  await expect(figure).toHaveAttribute("data-diagram", "drawn", { timeout: 60_000 });
  const image = figure.getByRole("img", { name: "Rain decision. What to take when it rains" });
  await expect(image).toBeVisible();
  // A real drawing: an SVG with a size, decoded by the browser.
  const size = await image.evaluate((element: HTMLImageElement) => ({
    width: element.naturalWidth,
    height: element.naturalHeight,
    src: element.src,
  }));
  expect(size.width).toBeGreaterThan(50);
  expect(size.height).toBeGreaterThan(50);
  expect(size.src).toMatch(/^blob:/);
  const svg = await page.evaluate(async (url) => (await fetch(url)).text(), size.src);
  expect(svg).toContain("<svg");
  expect(svg).toContain("Umbrella");
  await expect(figure).toContainText("Mermaid flowchart diagram");

  await figure.getByRole("button", { name: "Source", exact: true }).click();
  await expect(figure.getByRole("button", { name: "Source", exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(figure.locator("[data-diagram-code]")).toHaveText(FLOWCHART);
  await figure.getByRole("button", { name: "Source", exact: true }).click();
  await expect(image).toBeVisible();
  await expect(chat.answerText()).toContainText("That is all.");
  await expectNoSeriousViolations(page);

  // Dark mode draws it again with the dark theme (a different image).
  await page.evaluate(() => document.documentElement.classList.add("dark"));
  await expect
    .poll(() => figure.getByRole("img").getAttribute("src"), { timeout: 30_000 })
    .not.toBe(size.src);
});

test("a diagram that does not parse says so and keeps its source", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(200);
  await chat.send(`Repeat after me: ${fenced("flowchart TD\n  A --> --> ((")}`);
  await chat.waitForAnswerDone();
  const figure = chat.answerText().locator("figure[data-diagram]");
  await expect(figure).toHaveAttribute("data-diagram", "failed", { timeout: 60_000 });
  await expect(figure).toContainText("Could not draw this diagram");
  await expect(figure.locator("[data-diagram-code]")).toContainText("A --> -->");
});

test("a hostile diagram stays inert, and drawing works under a strict page CSP", async ({
  page,
}) => {
  // A policy as strict as a Next page allows (its inline bootstrap scripts), without
  // 'unsafe-eval', framing only by this origin: any script the diagram smuggled in, or any
  // eval in the drawing path, would be reported as a violation.
  await page.route("**/chat**", async (route) => {
    if (route.request().resourceType() !== "document") return route.fallback();
    const response = await route.fetch();
    await route.fulfill({
      response,
      headers: {
        ...response.headers(),
        "content-security-policy":
          "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' blob: data:; font-src 'self' data:; connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'self'",
      },
    });
  });
  await watchForScript(page);
  let dialogs = 0;
  page.on("dialog", (dialog) => {
    dialogs++;
    void dialog.dismiss();
  });
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(400);
  const hostile = [
    "flowchart LR",
    '  A["<img src=x onerror=alert(1)>"] --> B["<script>alert(2)</script>"]',
    '  click A href "javascript:alert(3)"',
    "  click B call alert(4)",
  ].join("\n");
  await chat.send(`Repeat after me: ${fenced(hostile)}`);
  await chat.waitForAnswerDone();
  const figure = chat.answerText().locator("figure[data-diagram]");
  await expect(figure).toHaveAttribute("data-diagram", /drawn|failed/, { timeout: 60_000 });
  if ((await figure.getAttribute("data-diagram")) === "drawn") {
    await figure.getByRole("img").click();
  }
  await expect(chat.answerText().locator("a[href^='javascript:']")).toHaveCount(0);
  await expect(chat.answerText().locator("img[src='x'], script")).toHaveCount(0);

  await chat.send(`Repeat after me: ${fenced(FLOWCHART)}`);
  await chat.waitForAnswerDone();
  await expect(chat.answerText().locator("figure[data-diagram]")).toHaveAttribute(
    "data-diagram",
    "drawn",
    { timeout: 60_000 },
  );
  expect(dialogs).toBe(0);
  expect(
    await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
  ).toEqual([]);
});

test("the renderer frame and its modules: sandbox-ready headers, nothing else served", async ({
  request,
}) => {
  const frame = await request.get("/diagram-frame");
  expect(frame.status()).toBe(200);
  const policy = frame.headers()["content-security-policy"] ?? "";
  expect(policy).toContain("default-src 'none'");
  expect(policy).toContain("frame-ancestors 'self'");
  expect(policy).toContain("script-src 'self'");
  expect(policy).not.toContain("unsafe-eval");
  // No inline script: the page only loads the renderer module from this server.
  const html = await frame.text();
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  const renderer = /<script type="module" src="([^"]+)"/.exec(html)?.[1];
  expect(renderer).toMatch(/^\/diagram-frame\/renderer\.mjs\?v=\d+\.\d+\.\d+$/);
  const rendererModule = await request.get(renderer!);
  expect(rendererModule.status()).toBe(200);
  expect(rendererModule.headers()["content-type"]).toContain("text/javascript");
  expect(rendererModule.headers()["access-control-allow-origin"]).toBe("*");
  const entry = /import mermaid from "([^"]+)"/.exec(await rendererModule.text())?.[1];
  expect(entry).toMatch(/^\/diagram-frame\/mermaid\/\d+\.\d+\.\d+\/mermaid\.esm\.min\.mjs$/);
  const entryModule = await request.get(entry!);
  expect(entryModule.status()).toBe(200);
  expect(entryModule.headers()["content-type"]).toContain("text/javascript");
  expect(entryModule.headers()["access-control-allow-origin"]).toBe("*");
  const version = entry!.split("/")[3];
  for (const path of [
    `/diagram-frame/mermaid/${version}/package.json`,
    `/diagram-frame/mermaid/${version}/chunks/mermaid.esm.min/..%2F..%2F..%2Fpackage.json`,
    `/diagram-frame/mermaid/${version}/../../../package.json`,
    `/diagram-frame/mermaid/0.0.1/mermaid.esm.min.mjs`,
  ]) {
    expect((await request.get(path)).status(), path).toBe(404);
  }
});
