/** Page object of the studio's chat page: the roles and labels a person would use. */
import { expect, type Locator, type Page } from "@playwright/test";

export class ChatPage {
  readonly prompt: Locator;
  readonly sendButton: Locator;
  readonly stopButton: Locator;
  readonly settingsButton: Locator;
  readonly settings: Locator;
  readonly answers: Locator;
  readonly userMessages: Locator;
  readonly sidebar: Locator;
  readonly notice: Locator;

  constructor(readonly page: Page) {
    this.prompt = page.getByRole("textbox", { name: "Message", exact: true });
    this.sendButton = page.getByRole("button", { name: "Send", exact: true });
    this.stopButton = page.getByRole("button", { name: "Stop", exact: true });
    this.settingsButton = page.getByRole("button", { name: /^Settings/ });
    this.settings = page.getByRole("form", { name: "Chat settings" });
    this.answers = page.getByRole("article", { name: "Answer" });
    this.userMessages = page.getByRole("article", { name: "Your message" });
    this.sidebar = page.getByRole("complementary", { name: "Conversations" });
    this.notice = page.getByRole("alert").filter({ hasText: /settings? marked/ });
  }

  /**
   * Opens the page and waits until it takes input: the server-rendered box shows before React
   * has hydrated it, and what a person types before then is reset by the hydration.
   */
  async open(conversationId?: string): Promise<void> {
    await this.page.goto(conversationId ? `/chat/${conversationId}` : "/chat");
    await expect(this.prompt).toBeVisible();
    await expect
      .poll(() =>
        // React marks an element it has hydrated with its props.
        this.prompt.evaluate((box) =>
          Object.keys(box).some((key) => key.startsWith("__reactProps")),
        ),
      )
      .toBe(true);
  }

  /** The id of the open conversation, from the URL. */
  conversationId(): string | null {
    return /\/chat\/([^/?#]+)/.exec(this.page.url())?.[1] ?? null;
  }

  async send(text: string): Promise<void> {
    await this.prompt.fill(text);
    await this.prompt.press("Enter");
  }

  lastAnswer(): Locator {
    return this.answers.last();
  }

  /**
   * The request the studio's server sends for the next answer: answers are generated on the
   * server, which names the request in the first event of the turn's stream.
   */
  async nextTurnRequest(): Promise<Record<string, unknown>> {
    const response = await this.page.waitForResponse((candidate) =>
      /\/api\/conversations\/[^/]+\/turns$/.test(candidate.url()),
    );
    const first = (await response.text())
      .split("\r\n\r\n")
      .find((event) => event.startsWith("data: "));
    return (
      JSON.parse(first!.slice("data: ".length)) as { turn: { request: Record<string, unknown> } }
    ).turn.request;
  }

  /**
   * Scripts the streamed answer to the next prompt that contains `marker` (once) through the
   * emulator, which paces its chunks: a test that must act while an answer is still arriving
   * cannot rely on the engine's own speed, which depends on the machine and its load.
   */
  async scriptStreamedAnswer(
    marker: string,
    pieces: string[],
    chunkDelayMs: number,
  ): Promise<void> {
    const status = await this.page.evaluate(
      async (scenario) =>
        (
          await fetch("/emulator/scenarios", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(scenario),
          })
        ).status,
      {
        match: { operation: "stream", textContains: marker },
        respond: { chunks: pieces, chunkDelayMs },
        times: 1,
      },
    );
    expect(status).toBe(200);
  }

  /**
   * Sends a new prompt whose answer the emulator streams in `count` pieces, `chunkDelayMs`
   * apart (by default about 25 seconds): for tests that act while the answer is arriving.
   * Returns the pieces.
   */
  async sendWithPacedAnswer(count = 500, chunkDelayMs = 50): Promise<string[]> {
    const prompt = `Tell me about the tide ${Date.now()} ${Math.random()}`;
    const pieces = ChatPage.numberedSentences(count);
    await this.scriptStreamedAnswer(prompt, pieces, chunkDelayMs);
    await this.send(prompt);
    return pieces;
  }

  /** Pieces of a scripted answer: `count` numbered sentences. */
  static numberedSentences(count: number): string[] {
    return Array.from({ length: count }, (_, index) => `Sentence ${index + 1} of the tide. `);
  }

  /** "2 / 3" under a message that has other versions. */
  versionPosition(message: Locator): Locator {
    return message.locator("[data-version-position]");
  }

  /** The visible text of an answer (markdown rendered), without its controls. */
  answerText(answer: Locator = this.lastAnswer()): Locator {
    return answer.locator("[data-answer-text]");
  }

  async waitForAnswerDone(answer: Locator = this.lastAnswer()): Promise<void> {
    await expect(answer).toBeVisible();
    await expect(answer).not.toHaveAttribute("aria-busy", "true", { timeout: 60_000 });
  }

  async openSettings(): Promise<void> {
    if (!(await this.settings.isVisible())) await this.settingsButton.click();
    await expect(this.settings).toBeVisible();
  }

  setting(label: string | RegExp): Locator {
    return this.settings.getByLabel(label, { exact: typeof label === "string" });
  }

  /** Sets a number or text setting and lets the debounced save start. */
  async fillSetting(label: string, value: string): Promise<void> {
    await this.openSettings();
    await this.setting(label).fill(value);
  }

  /**
   * Bounds answers to `maxOutputTokens` with thinking off, so every token is answer text
   * (a thinking model could otherwise spend a small budget on thoughts alone).
   */
  async limitAnswers(maxOutputTokens: number): Promise<void> {
    await this.fillSetting("Max output tokens", String(maxOutputTokens));
    await this.fillSetting("Thinking budget (tokens)", "0");
  }

  /**
   * A prompt whose answer is about 20,000 tokens long: the local model's documented
   * "Repeat after me:" skill answers the text exactly, streamed token by token (a few seconds).
   */
  static longAnswerPrompt(sentences = 2000): string {
    return `Repeat after me: ${"The tide comes in over the warm sand and goes out again. ".repeat(sentences)}`;
  }

  async selectSetting(label: string, value: string): Promise<void> {
    await this.openSettings();
    await this.setting(label).selectOption(value);
  }

  /** Text lengths of the streaming answer sampled on every DOM change until it completes. */
  async recordStreamLengths(): Promise<void> {
    await this.page.evaluate(() => {
      const lengths: number[] = [];
      (window as unknown as { __streamLengths: number[] }).__streamLengths = lengths;
      const observer = new MutationObserver(() => {
        const answers = document.querySelectorAll('article[aria-label="Answer"]');
        const last = answers[answers.length - 1];
        const text = last?.querySelector("[data-answer-text]")?.textContent ?? "";
        if (lengths[lengths.length - 1] !== text.length) lengths.push(text.length);
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  }

  async recordedStreamLengths(): Promise<number[]> {
    return this.page.evaluate(
      () => (window as unknown as { __streamLengths: number[] }).__streamLengths,
    );
  }
}
