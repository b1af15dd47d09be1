import { describe, expect, it } from "vitest";
import { SEARCH_MARK_START } from "./conversation-schema";
import { DEFAULT_TITLE, plainTextOfMarkdown, searchTextOf, titleFromPrompt } from "./message-text";

const title = (text: string) => titleFromPrompt([{ text }]);

describe("titleFromPrompt", () => {
  it("keeps the words and drops markdown and markup", () => {
    expect(title("# **Bold** plan for _the_ week\n\n- item one")).toBe(
      "Bold plan for the week item one",
    );
    expect(title("> quoted `code` and [a link](https://example.com) ![pic](x.png)")).toBe(
      "quoted code and a link pic",
    );
    expect(title("Rename my_snake_case <script>alert(1)</script> var")).toBe(
      "Rename my_snake_case alert(1) var",
    );
    expect(title("```python\nprint('hi')\n```\nWhat does this print?")).toBe(
      "What does this print?",
    );
    expect(title("```\nonly code here\n```")).toBe("only code here");
    expect(title("  a\nb  ")).toBe("a b");
  });

  it("is short, and says what a prompt without words carries", () => {
    expect(title("x".repeat(100))).toHaveLength(60);
    expect(title("x".repeat(100)).endsWith("…")).toBe(true);
    expect(titleFromPrompt([{ fileData: { fileUri: "u", mimeType: "image/png" } }])).toBe(
      "Attachments",
    );
    expect(titleFromPrompt([{ functionResponse: { name: "lookup", response: {} } }])).toBe(
      "Function response lookup",
    );
    expect(title("***")).toBe(DEFAULT_TITLE);
  });

  it("takes linear time on hostile input", () => {
    const hostile = `${"[".repeat(50_000)}${"](".repeat(50_000)}${"_*`".repeat(50_000)}<a${" ".repeat(100_000)}`;
    const started = performance.now();
    plainTextOfMarkdown(hostile);
    // A generous bound that only a quadratic scan (tens of seconds here) would break.
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe("searchTextOf", () => {
  it("indexes the visible text and attachment names, never thoughts or search markers", () => {
    expect(
      searchTextOf({
        id: "m",
        role: "model",
        content: {
          role: "model",
          parts: [{ text: "hidden", thought: true }, { text: `shown${SEARCH_MARK_START}` }],
        },
        attachments: [{ part: 0, displayName: "budget.pdf", mimeType: "application/pdf" }],
      }),
    ).toBe("shown\nbudget.pdf");
  });
});
