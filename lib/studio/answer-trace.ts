/**
 * The raw record of one answer's exchange, for the inspector: the request as sent, the
 * response's status and headers, every streamed event with its arrival time, a failure's body,
 * and the timings derived from them (time to first token, total, tokens per second). Recorded
 * by a StreamObserver while the answer streams: by the tab that reads it, and by the server
 * that generates it, which stores it with the answer. Bounded so a long answer cannot hold
 * the tab's memory or the database. Pure apart from the clock it is given. Safe in the browser.
 */
import type { StreamObserver } from "@/lib/gemini/client/sse-client";
import type { GenerateContentRequest, UsageMetadata } from "@/lib/gemini/types";

/** Events kept per answer (a 20,000-token answer is about 1,300); later ones are counted only. */
export const MAX_TRACE_EVENTS = 5000;
/** Characters of event data kept per answer. */
export const MAX_TRACE_CHARACTERS = 8 * 1024 * 1024;

/** How much of an exchange is kept. */
export interface TraceLimits {
  maxEvents: number;
  maxCharacters: number;
}

/** What a tab keeps of the answers it generated (in memory, the newest few). */
export const TAB_TRACE_LIMITS: TraceLimits = {
  maxEvents: MAX_TRACE_EVENTS,
  maxCharacters: MAX_TRACE_CHARACTERS,
};

/**
 * What the server stores with every answer (a 20,000-token answer's events are about 0.4 MB;
 * a picture's bytes can pass the cap, and its later events are then counted only).
 */
export const STORED_TRACE_LIMITS: TraceLimits = {
  maxEvents: MAX_TRACE_EVENTS,
  maxCharacters: 2 * 1024 * 1024,
};

export interface TraceEvent {
  /** Milliseconds after the request was sent. */
  at: number;
  data: string;
}

export interface AnswerTrace {
  model: string;
  url: string;
  request: GenerateContentRequest;
  /** Epoch milliseconds when the request was sent. */
  startedAt: number;
  status?: number;
  headers?: [string, string][];
  /** Milliseconds after the request: when the headers arrived. */
  headersAt?: number;
  events: TraceEvent[];
  /** Events not kept (over MAX_TRACE_EVENTS or MAX_TRACE_CHARACTERS). */
  droppedEvents: number;
  /** Milliseconds after the request: the first event carrying answer parts. */
  firstTokenAt?: number;
  /** Milliseconds after the request: when the stream ended (done, stopped or failed). */
  endedAt?: number;
  /** A failed response's body (or the error object that ended the stream), exactly as sent. */
  errorBody?: string;
}

/** Timings shown per answer and kept with it. */
export interface AnswerTiming {
  firstTokenMs?: number;
  totalMs: number;
}

/** Whether an event's data carries parts of an answer (text, a call, code, media). */
function carriesParts(data: string): boolean {
  // A cheap test first: most events do; only the ones that may are parsed.
  if (!data.includes('"parts"')) return false;
  try {
    const value = JSON.parse(data) as {
      candidates?: { content?: { parts?: unknown[] } }[];
    };
    return (value.candidates ?? []).some(
      (candidate) => (candidate.content?.parts?.length ?? 0) > 0,
    );
  } catch {
    return false;
  }
}

export interface TraceRecorder {
  observer: StreamObserver;
  /** Marks the end of the stream; returns the finished trace. */
  end(): AnswerTrace;
  trace(): AnswerTrace;
}

/** Records one exchange; `now` is a monotonic clock in milliseconds (performance.now in pages). */
export function recordTrace(
  start: { model: string; url: string; request: GenerateContentRequest },
  now: () => number = () => performance.now(),
  limits: TraceLimits = TAB_TRACE_LIMITS,
): TraceRecorder {
  const origin = now();
  let characters = 0;
  const trace: AnswerTrace = { ...start, startedAt: Date.now(), events: [], droppedEvents: 0 };
  const elapsed = () => Math.round((now() - origin) * 10) / 10;
  return {
    observer: {
      onResponse(response) {
        trace.status = response.status;
        trace.headers = [...response.headers.entries()];
        trace.headersAt = elapsed();
      },
      onErrorBody(text) {
        trace.errorBody = text;
      },
      onEvent(data) {
        const at = elapsed();
        if (trace.firstTokenAt === undefined && carriesParts(data)) trace.firstTokenAt = at;
        // An error after the stream started arrives as an event (or a raw line): its body as sent.
        if (/^\s*\[?\s*\{\s*"error"/.test(data)) trace.errorBody = data;
        if (
          trace.events.length >= limits.maxEvents ||
          characters + data.length > limits.maxCharacters
        ) {
          trace.droppedEvents += 1;
          return;
        }
        characters += data.length;
        trace.events.push({ at, data });
      },
    },
    end() {
      trace.endedAt ??= elapsed();
      return trace;
    },
    trace: () => trace,
  };
}

/** The timings of a finished trace. */
export function traceTiming(trace: AnswerTrace): AnswerTiming {
  const timing: AnswerTiming = { totalMs: Math.round(trace.endedAt ?? 0) };
  if (trace.firstTokenAt !== undefined) timing.firstTokenMs = Math.round(trace.firstTokenAt);
  return timing;
}

/**
 * Output tokens per second, from the first token to the end (the generation's own rate, not
 * the wait before it); null when there is no such span or no output.
 */
export function tokensPerSecond(
  timing: AnswerTiming,
  usage: UsageMetadata | undefined,
): number | null {
  const tokens = (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0);
  if (timing.firstTokenMs === undefined || tokens === 0) return null;
  const seconds = (timing.totalMs - timing.firstTokenMs) / 1000;
  return seconds > 0 ? tokens / seconds : null;
}
