/**
 * A logged exchange (a recorded-exchanges line) as the inspector shows an answer: its request,
 * status and headers, each streamed event with when it arrived (from the entry's timing: an
 * event arrived with the piece that completed it), the first answer token, the end, and the
 * error body of a failed request. A unary answer is one event.
 */
import type { GenerateContentRequest, UsageMetadata } from "@/lib/gemini/types";
import type { AnswerTrace, TraceEvent } from "./answer-trace";
import type { LoggedExchange } from "./request-logs";

const SSE_EVENT_END = /\r\n\r\n|\n\n|\r\r/g;
const encoder = new TextEncoder();

function byteLength(text: string): number {
  return encoder.encode(text).length;
}

function arrivalOf(chunks: Array<[number, number]>, headersMs: number) {
  const ends: Array<[number, number]> = [];
  let bytes = 0;
  for (const [at, size] of chunks) {
    bytes += size;
    ends.push([bytes, at]);
  }
  return (byteOffset: number): number => {
    for (const [end, at] of ends) if (byteOffset <= end) return at;
    return ends.length ? ends[ends.length - 1]![1] : headersMs;
  };
}

function carriesParts(data: string): boolean {
  try {
    const value = JSON.parse(data) as { candidates?: { content?: { parts?: unknown[] } }[] };
    return (value.candidates ?? []).some(
      (candidate) => (candidate.content?.parts?.length ?? 0) > 0,
    );
  } catch {
    return false;
  }
}

function usageOf(data: string): UsageMetadata | undefined {
  try {
    return (JSON.parse(data) as { usageMetadata?: UsageMetadata }).usageMetadata;
  } catch {
    return undefined;
  }
}

export function loggedExchangeTrace(
  exchange: LoggedExchange,
  startedAt: number,
): { trace: AnswerTrace; usageMetadata?: UsageMetadata } {
  const { headersMs, chunks } = exchange.responseTiming;
  const arrival = arrivalOf(chunks, headersMs);
  const body = exchange.responseBody;
  const events: TraceEvent[] = [];
  if ((exchange.responseHeaders["content-type"] ?? "").includes("text/event-stream")) {
    let from = 0;
    let bytes = 0;
    for (const match of body.matchAll(SSE_EVENT_END)) {
      const end = match.index + match[0].length;
      bytes += byteLength(body.slice(from, end));
      const block = body.slice(from, match.index);
      const data = block
        .split(/\r\n|\n|\r/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n");
      if (data) events.push({ at: arrival(bytes), data });
      from = end;
    }
  } else if (body) {
    events.push({ at: arrival(byteLength(body)), data: body });
  }
  const query = new URLSearchParams(exchange.query).toString();
  const model = /\/models\/([^/:]+)/.exec(exchange.path)?.[1] ?? "";
  const first = events.find((event) => carriesParts(event.data));
  const usageMetadata = [...events]
    .reverse()
    .map((event) => usageOf(event.data))
    .find(Boolean);
  const trace: AnswerTrace = {
    model: model ? `models/${decodeURIComponent(model)}` : exchange.operation,
    url: `${exchange.path}${query ? `?${query}` : ""}`,
    request: (exchange.requestBodyEncoding === "json"
      ? exchange.requestBody
      : {}) as GenerateContentRequest,
    startedAt,
    status: exchange.status,
    headers: Object.entries(exchange.responseHeaders),
    headersAt: headersMs,
    events,
    droppedEvents: 0,
    ...(first ? { firstTokenAt: first.at } : {}),
    endedAt: chunks.length ? chunks[chunks.length - 1]![0] : headersMs,
    ...(exchange.status >= 400 ? { errorBody: body } : {}),
  };
  return { trace, ...(usageMetadata ? { usageMetadata } : {}) };
}
