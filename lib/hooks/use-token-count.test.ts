import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CountTokensResponse } from "@/lib/gemini/types";
import {
  countableRequest,
  createTokenCountScheduler,
  type TokenCountInput,
  type TokenCountState,
} from "./use-token-count";

function input(text: string): TokenCountInput {
  return {
    model: "models/gemini-2.5-flash",
    request: { contents: [{ role: "user", parts: [{ text }] }] },
  };
}

describe("createTokenCountScheduler", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("debounces typing into one request and aborts requests made stale by newer input", async () => {
    const calls: {
      text: string;
      signal: AbortSignal;
      resolve(value: CountTokensResponse): void;
    }[] = [];
    const states: TokenCountState[] = [];
    const scheduler = createTokenCountScheduler({
      delayMs: 300,
      onChange: (state) => states.push(state),
      count: (value, signal) =>
        new Promise((resolve) =>
          calls.push({ text: value.request.contents[0]!.parts[0]!.text!, signal, resolve }),
        ),
    });
    scheduler.schedule(input("h"));
    vi.advanceTimersByTime(100);
    scheduler.schedule(input("he"));
    vi.advanceTimersByTime(100);
    scheduler.schedule(input("hel"));
    vi.advanceTimersByTime(299);
    expect(calls).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(calls.map((call) => call.text)).toEqual(["hel"]);

    // Newer input while "hel" is in flight: "hel" is aborted once "hello" is sent, and its
    // late answer ignored.
    scheduler.schedule(input("hello"));
    expect(calls[0]!.signal.aborted).toBe(false);
    vi.advanceTimersByTime(300);
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[0]!.resolve({ totalTokens: 3 });
    await Promise.resolve();
    expect(states.at(-1)).toMatchObject({ counting: true, result: null });
    calls[1]!.resolve({ totalTokens: 5 });
    await vi.runAllTimersAsync();
    expect(states.at(-1)).toEqual({
      result: { totalTokens: 5 },
      counting: false,
      error: null,
      current: true,
    });
    expect(states.some((state) => state.result?.totalTokens === 3)).toBe(false);
  });

  it("counts at least every maxWait while the person keeps typing", async () => {
    const sent: string[] = [];
    const scheduler = createTokenCountScheduler({
      delayMs: 300,
      maxWaitMs: 900,
      onChange: () => {},
      count: async (value) => {
        sent.push(value.request.contents[0]!.parts[0]!.text!);
        return { totalTokens: 1 };
      },
    });
    let text = "";
    for (let keystroke = 0; keystroke < 20; keystroke++) {
      text += "a";
      scheduler.schedule(input(text));
      await vi.advanceTimersByTimeAsync(100);
    }
    // Two seconds of typing, a key every 100 ms: counted at 0.9 s and 1.8 s, not only after it.
    expect(sent.map((value) => value.length)).toEqual([9, 18]);
    await vi.advanceTimersByTimeAsync(300);
    expect(sent.at(-1)).toHaveLength(20);
    scheduler.dispose();
  });

  it("ignores the same input again, clears on null, and reports errors", async () => {
    const states: TokenCountState[] = [];
    let calls = 0;
    const scheduler = createTokenCountScheduler({
      delayMs: 10,
      onChange: (state) => states.push(state),
      count: async () => {
        calls++;
        throw new Error("models/x is not found");
      },
    });
    scheduler.schedule(input("a"));
    scheduler.schedule(input("a"));
    await vi.runAllTimersAsync();
    expect(calls).toBe(1);
    expect(states.at(-1)?.error?.message).toBe("models/x is not found");
    scheduler.schedule(null);
    expect(states.at(-1)).toEqual({ result: null, counting: false, error: null, current: false });
    scheduler.dispose();
  });
});

describe("countableRequest", () => {
  it("keeps what is counted and drops generation settings", () => {
    expect(
      countableRequest({
        contents: [{ parts: [{ text: "x" }] }],
        systemInstruction: { parts: [{ text: "be brief" }] },
        generationConfig: { temperature: 0.5 },
        safetySettings: [],
        tools: [],
        cachedContent: "cachedContents/abc",
      }),
    ).toEqual({
      contents: [{ parts: [{ text: "x" }] }],
      systemInstruction: { parts: [{ text: "be brief" }] },
      cachedContent: "cachedContents/abc",
    });
  });
});
