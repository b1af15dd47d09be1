import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { expectNoSeriousViolations } from "./pages/answer-metadata";

/** LaTeX in answers: typeset by KaTeX, inline and display, with the source one click away. */

test("formulas in an answer are typeset, readable as MathML, and show their TeX on request", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(400);
  const inline = "A = \\pi r^2";
  const display = "\\int_0^1 x^2\\,dx = \\frac{1}{3}";
  await chat.send(`Repeat after me: The area is $${inline}$ for a circle.\n\n$$${display}$$`);
  await chat.waitForAnswerDone();
  const answer = chat.answerText();
  const inlineMath = answer.locator("[data-math=inline]");
  const displayMath = answer.locator("[data-math=display]");
  await expect(inlineMath.locator(".katex")).toBeVisible();
  await expect(displayMath.locator(".katex-display")).toBeVisible();
  // MathML for assistive technology carries the TeX source as its annotation.
  await expect(inlineMath.locator('annotation[encoding="application/x-tex"]')).toHaveText(inline);
  await expect(displayMath.locator('annotation[encoding="application/x-tex"]')).toHaveText(display);
  await expect(answer).toContainText("for a circle.");

  await displayMath.getByRole("button", { name: "TeX" }).click();
  await expect(displayMath.locator("[data-tex]")).toHaveText(`$$${display}$$`);
  await displayMath.getByRole("button", { name: "Formula" }).click();
  await expect(displayMath.locator(".katex-display")).toBeVisible();
  await expectNoSeriousViolations(page);
});

test("math in a hostile answer stays inert: no links or HTML from TeX", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(200);
  await chat.send(
    "Repeat after me: $\\href{javascript:alert(1)}{click}$ and $\\htmlId{x}{y}$ done",
  );
  await chat.waitForAnswerDone();
  await expect(chat.answerText().locator("[data-math=inline] .katex")).toHaveCount(2);
  await expect(chat.answerText().locator("a[href^='javascript:']")).toHaveCount(0);
  await expect(chat.answerText().locator("#x")).toHaveCount(0);
});
