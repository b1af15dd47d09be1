import "server-only";
import type { Span } from "@opentelemetry/api";
import type { Caller } from "@/lib/gemini/backend/contract";
import { logger } from "../config/logger";
import { mayAskForLogging, startLogCapture, type LogCapture } from "./log-capture";
import { operationName } from "../observability/operation-names";
import { markStage } from "../observability/request-stages";
import { requestUrl } from "../http/request-url";
import {
  countRequest,
  observeFirstByte,
  streamClosed,
  streamOpened,
} from "../observability/studio-metrics";
import {
  endRequestSpan,
  setSpanUsage,
  startRequestSpan,
  type SpanUsage,
} from "../observability/tracing";

/**
 * What is watched of each API request, in one place: its count and latency (metrics), its
 * span (traces), and, when its key or person asked for it, its log entry. The route module
 * wraps the router (`observeApiRequest`); the router says which route matched (`noteRoute`)
 * and who called (`noteCaller`); an answer's usage reaches the request through its caller
 * (`observationOf`, from lib/server/usage). Everything is kept in memory and written off the
 * request's path: a request with no log waits for nothing here. A streamed answer is watched
 * to its last byte through one pass-through that never holds a piece back.
 */

export interface AnswerUsageFacts extends SpanUsage {
  totalTokens: number;
  nanodollars: number;
}

export interface RequestObservation {
  request: Request;
  url: URL;
  /** Epoch milliseconds and the monotonic clock at arrival. */
  startedAt: number;
  startTick: number;
  /** Null until the route table matched the path. */
  operation: string | null;
  model?: string;
  streamed: boolean;
  caller?: Caller;
  span: Span | null;
  usage: AnswerUsageFacts | null;
  log: LogCapture | null;
  done: boolean;
  /** What the answer holds until its last byte (a stream's slot), released with the watched body. */
  release?: () => void;
}

const byRequest = new WeakMap<Request, RequestObservation>();
const byCaller = new WeakMap<Caller, RequestObservation>();

/** The observation of the request `caller` made, while it is under way. */
export function observationOf(caller: Caller): RequestObservation | undefined {
  return byCaller.get(caller);
}

/**
 * The route table matched: the operation (and model) are known, the span starts. `named` is
 * the operation's name when the path alone may not give it (a forwarded method: its rule).
 */
export function noteRoute(
  request: Request,
  rest: string,
  params: Record<string, string>,
  named?: string,
): void {
  const observation = byRequest.get(request);
  if (!observation) return;
  const upload = observation.url.pathname.startsWith("/upload/");
  const operation =
    named ??
    operationName(request.method, rest, {
      upload,
      uploadCommand: upload && observation.url.searchParams.has("upload_id"),
    });
  observation.operation = operation;
  observation.model = params.model;
  observation.streamed =
    /stream/i.test(operation) || observation.url.searchParams.get("alt") === "sse";
  observation.span = startRequestSpan({
    request,
    operation,
    path: observation.url.pathname,
    model: params.model,
    streamed: observation.streamed,
    startTime: observation.startedAt,
  });
}

/**
 * The caller is known: answers' usage finds the request; its log starts if it asked for one.
 * A caller that cannot have asked (a configured key) has nothing to wait for: undefined then,
 * no promise made; else the promise of the log's start.
 */
export function noteCaller(request: Request, caller: Caller): Promise<void> | undefined {
  const observation = byRequest.get(request);
  if (!observation) return undefined;
  observation.caller = caller;
  byCaller.set(caller, observation);
  return mayAskForLogging(caller) ? startLog(observation) : undefined;
}

async function startLog(observation: RequestObservation): Promise<void> {
  try {
    observation.log = await startLogCapture(observation);
  } catch (error) {
    // The request is served either way: a log that cannot start is the only thing lost.
    logger.warn("starting a request's log entry failed", error);
  }
}

/**
 * Hands `release` (a stream slot's) to the request's observation, which calls it when the
 * answer's body ends, fails or is cancelled, or the request is aborted: the slot is released by
 * the observation's one pass-through instead of one of its own. False when the request is not
 * observed (the caller then releases it itself).
 */
export function releaseWithAnswer(request: Request, release: () => void): boolean {
  const observation = byRequest.get(request);
  if (!observation || observation.done) return false;
  observation.release = release;
  return true;
}

/** Adds an answer's usage to the request it belongs to (a request may carry several). */
export function addAnswerUsage(observation: RequestObservation, usage: AnswerUsageFacts): void {
  if (observation.done) return;
  const sum = observation.usage;
  observation.usage = sum
    ? {
        ...usage,
        inputTokens: sum.inputTokens + usage.inputTokens,
        outputTokens: sum.outputTokens + usage.outputTokens,
        cachedTokens: sum.cachedTokens + usage.cachedTokens,
        thoughtTokens: sum.thoughtTokens + usage.thoughtTokens,
        totalTokens: sum.totalTokens + usage.totalTokens,
        nanodollars: sum.nanodollars + usage.nanodollars,
      }
    : usage;
}

function complete(observation: RequestObservation, status: number): void {
  if (observation.done) return;
  observation.done = true;
  const seconds = (performance.now() - observation.startTick) / 1000;
  const operation = observation.operation ?? "unmatched";
  countRequest(operation, observation.model, status, seconds);
  if (observation.span) {
    if (observation.usage) setSpanUsage(observation.span, observation.usage);
    endRequestSpan(observation.span, status, observation.startedAt + seconds * 1000);
  }
  observation.log?.finish(status, Math.round(seconds * 1000), observation.usage);
}

/** The response as it was, its body watched to the end (first byte, log pieces, completion). */
function watchedBody(observation: RequestObservation, response: Response): Response {
  const source = response.body!;
  const reader = source.getReader();
  const operation = observation.operation ?? "unmatched";
  const stream = observation.streamed;
  if (stream) streamOpened(operation);
  let first = true;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    observation.release?.();
    if (stream) streamClosed(operation);
    complete(observation, response.status);
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          close();
          controller.close();
          return;
        }
        if (first) {
          first = false;
          if (stream)
            observeFirstByte(
              operation,
              observation.model,
              (performance.now() - observation.startTick) / 1000,
            );
        }
        observation.log?.responseChunk(value, performance.now() - observation.startTick);
        controller.enqueue(value);
      } catch (error) {
        close();
        controller.error(error);
      }
    },
    async cancel(reason) {
      close();
      await reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * Serves one request of the API surface through `serve` (the router, which never throws) and
 * observes it: counted and timed when its answer is finished (a stream's when its last byte is
 * sent or the client left), its span ended, its log entry written.
 */
export async function observeApiRequest(
  request: Request,
  serve: (request: Request) => Promise<Response>,
): Promise<Response> {
  const observation: RequestObservation = {
    request,
    url: requestUrl(request),
    startedAt: Date.now(),
    startTick: performance.now(),
    operation: null,
    streamed: false,
    span: null,
    usage: null,
    log: null,
    done: false,
  };
  byRequest.set(request, observation);
  markStage("observation started");
  const response = await serve(request);
  const release = observation.release;
  if (release) request.signal.addEventListener("abort", release, { once: true });
  observation.log?.responseStarted(response, performance.now() - observation.startTick);
  // Asked only when watched: a whole answer makes its body's stream when someone asks for it.
  if ((observation.streamed || observation.log || release) && response.body)
    return watchedBody(observation, response);
  release?.();
  complete(observation, response.status);
  markStage("observed");
  return response;
}
