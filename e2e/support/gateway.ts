/**
 * Helpers of the gateway specs: every response a spec receives from a gateway (raw fetch and
 * the official SDK alike, since the SDK uses the global fetch) is recorded, headers and
 * body, so the specs can assert the upstream keys never appear in any of them.
 */
import { GoogleGenAI } from "@google/genai";
import { parseSseText, type SseMessage } from "@/lib/gemini/sse";
import { FAULT_UPSTREAM_KEY, UPSTREAM_KEY, type ServerInfo } from "./servers";

export const SECRETS = [UPSTREAM_KEY, FAULT_UPSTREAM_KEY];

interface Seen {
  url: string;
  text: Promise<string>;
  headers: string;
}

const seen: Seen[] = [];
let installed = false;

/** Patches the global fetch (once per worker) to keep a copy of every response. */
export function recordResponses(): void {
  if (installed) return;
  installed = true;
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const response = await original(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const copy = response.clone();
    seen.push({
      url,
      headers: JSON.stringify([...response.headers.entries()]),
      text: copy.text().catch(() => ""),
    });
    return response;
  };
}

/** Every recorded response so far, whole (waits for streams to end). */
export async function recordedResponses(): Promise<
  { url: string; headers: string; text: string }[]
> {
  return Promise.all(
    seen.map(async (item) => ({ url: item.url, headers: item.headers, text: await item.text })),
  );
}

/** Recorded responses (headers or body) that contain an upstream key. */
export async function responsesLeakingSecrets(): Promise<string[]> {
  const all = await recordedResponses();
  return all
    .filter((item) =>
      SECRETS.some((secret) => item.text.includes(secret) || item.headers.includes(secret)),
    )
    .map((item) => item.url);
}

export function gatewayClient(server: ServerInfo, apiKey: string): GoogleGenAI {
  return new GoogleGenAI({ apiKey, httpOptions: { baseUrl: server.baseUrl } });
}

export interface StreamResult {
  status: number;
  contentType: string | null;
  messages: SseMessage[];
  text: string;
  /** ms from sending the request to each `data:` event's arrival. */
  arrivals: number[];
}

/** POSTs a streamGenerateContent (`alt=sse`) and reads it event by event, timing each event. */
export async function streamRaw(
  server: ServerInfo,
  key: string,
  model: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<StreamResult> {
  const started = performance.now();
  const response = await fetch(
    `${server.baseUrl}/v1beta/models/${model}:streamGenerateContent?alt=sse`,
    {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": key },
      body: JSON.stringify(body),
      signal,
    },
  );
  const arrivals: number[] = [];
  let text = "";
  if (response.body) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const piece = decoder.decode(value, { stream: true });
      const events = piece.split("data:").length - 1;
      for (let index = 0; index < events; index++) arrivals.push(performance.now() - started);
      text += piece;
    }
  }
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    messages: parseSseText(text),
    text,
    arrivals,
  };
}

/** The text of each data event of a stream. */
export function streamTexts(result: StreamResult): string[] {
  return result.messages.flatMap((message) =>
    message.kind === "data"
      ? [
          (
            (message.value as { candidates?: { content?: { parts?: { text?: string }[] } }[] })
              .candidates?.[0]?.content?.parts ?? []
          )
            .map((part) => part.text ?? "")
            .join(""),
        ]
      : [],
  );
}

/** The error of a stream that ended with one. */
export function streamError(
  result: StreamResult,
): { code: number; status: string; message: string } | null {
  const last = result.messages.at(-1);
  return last?.kind === "error"
    ? (last.error as { code: number; status: string; message: string })
    : null;
}
