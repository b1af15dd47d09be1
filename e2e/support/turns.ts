/**
 * Studio chat turns over HTTP, for specs that drive the server-side turn runner without a
 * browser (several instances, faults): start a turn, join it, stop it, read its events.
 */
import { SseReader } from "@/lib/gemini/sse";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import type { TurnEvent } from "@/lib/studio/turn-events";

export const LONG_ANSWER_PROMPT = `Repeat after me: ${"The tide comes in over the warm sand and goes out again. ".repeat(6000)}`;

function headers(key: string): Record<string, string> {
  return { "x-goog-api-key": key, "content-type": "application/json" };
}

/** POST /api/conversations/{id}/turns: a first prompt (creating the conversation) and its answer. */
export function startTurn(
  baseUrl: string,
  key: string,
  conversationId: string,
  answerId: string,
  options: { text?: string; maxOutputTokens?: number; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(`${baseUrl}/api/conversations/${conversationId}/turns`, {
    method: "POST",
    headers: headers(key),
    signal: options.signal,
    body: JSON.stringify({
      parentId: null,
      prompt: {
        id: `${answerId}-prompt`,
        content: { role: "user", parts: [{ text: options.text ?? LONG_ANSWER_PROMPT }] },
      },
      answerId,
      settings: {
        model: "models/gemini-2.5-flash",
        systemInstruction: "",
        generationConfig: {
          maxOutputTokens: options.maxOutputTokens ?? 65_536,
          thinkingConfig: { thinkingBudget: 0 },
        },
        safetySettings: [],
      },
      create: {},
    }),
  });
}

/** GET /api/conversations/{id}/turns/{answerId}: the answer's events from now on. */
export function joinTurn(
  baseUrl: string,
  key: string,
  conversationId: string,
  answerId: string,
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${baseUrl}/api/conversations/${conversationId}/turns/${answerId}`, {
    headers: { "x-goog-api-key": key },
    signal,
  });
}

/** POST .../turns/{answerId}/stop: true when the answer was being generated. */
export async function stopTurn(
  baseUrl: string,
  key: string,
  conversationId: string,
  answerId: string,
): Promise<boolean> {
  const response = await fetch(
    `${baseUrl}/api/conversations/${conversationId}/turns/${answerId}/stop`,
    { method: "POST", headers: headers(key) },
  );
  if (response.status !== 200) throw new Error(`stop answered ${response.status}`);
  return ((await response.json()) as { stopped: boolean }).stopped;
}

/**
 * Reads a turn's events one at a time; `onEvent` answers true to stop reading. Resolves to
 * the last event read (the `done` event when the answer ended).
 */
export async function readTurnEvents(
  response: Response,
  onEvent: (event: TurnEvent) => boolean | void = () => false,
): Promise<TurnEvent | undefined> {
  if (response.status !== 200)
    throw new Error(`turn answered ${response.status}: ${await response.text()}`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const sse = new SseReader();
  let last: TurnEvent | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const messages = done ? sse.end() : sse.feed(decoder.decode(value, { stream: true }));
      for (const message of messages) {
        if (message.kind !== "data") throw new Error(`not a turn event: ${message.text}`);
        last = message.value as TurnEvent;
        if (onEvent(last) || "done" in last) return last;
      }
      if (done) return last;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** The text of a stored answer (its thoughts left out). */
export function answerText(message: StoredMessage | undefined): string {
  return (message?.content?.parts ?? [])
    .filter((part) => !part.thought)
    .map((part) => part.text ?? "")
    .join("");
}

/** The answer an event shows: the snapshot, the turn's answer, or the finished one. */
export function eventAnswer(event: TurnEvent | undefined): StoredMessage | undefined {
  if (!event) return undefined;
  if ("snapshot" in event) return event.snapshot;
  if ("turn" in event) return event.turn.answer;
  if ("done" in event) return event.done.answer;
  return undefined;
}
