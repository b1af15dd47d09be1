"use client";

import { useEffect, useRef, useState } from "react";
import { ApiError, type RpcStatus } from "@/lib/gemini/api-error";
import type { CountTokensResponse, GenerateContentRequest } from "@/lib/gemini/types";
import type {
  CountTokensWorkerAnswer,
  CountTokensWorkerRequest,
} from "@/lib/client/count-tokens-worker";

/**
 * The live token count of the next request: `countTokens` with the whole request as
 * `generateContentRequest`. Debounced while the person types, but counted at least every
 * `maxWaitMs` so the count follows a message as it is written; a request that a newer input
 * made stale is aborted when the newer one is sent (its answer is never shown). The body is
 * written and sent by a worker (count-tokens-worker.ts): a book-sized prompt never blocks
 * the page.
 */

export interface TokenCountInput {
  /** `models/{id}`. */
  model: string;
  /** What counts: contents, systemInstruction, tools, toolConfig, cachedContent. */
  request: GenerateContentRequest;
}

export interface TokenCountState {
  /** The last count that answered (kept, marked stale, while a newer one runs). */
  result: CountTokensResponse | null;
  /** A newer count is waiting for its debounce or its answer. */
  counting: boolean;
  error: Error | null;
  /** True when `result` counts exactly the latest input. */
  current: boolean;
}

export type CountTokens = (
  input: TokenCountInput,
  signal: AbortSignal,
) => Promise<CountTokensResponse>;

/** The fields of a request that change its count (generation settings do not). */
export function countableRequest(request: GenerateContentRequest): GenerateContentRequest {
  const countable: GenerateContentRequest = { contents: request.contents };
  if (request.systemInstruction) countable.systemInstruction = request.systemInstruction;
  if (request.tools?.length) countable.tools = request.tools;
  if (request.toolConfig) countable.toolConfig = request.toolConfig;
  if (request.cachedContent) countable.cachedContent = request.cachedContent;
  return countable;
}

export interface TokenCountScheduler {
  /** Counts this input after the debounce (null: nothing to count). Same input again: no-op. */
  schedule(input: TokenCountInput | null): void;
  dispose(): void;
}

export const IDLE_TOKEN_COUNT: TokenCountState = {
  result: null,
  counting: false,
  error: null,
  current: false,
};

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

/**
 * Whether two values are the same JSON data. Walks both, stopping at the first difference;
 * strings compare natively, so two megabyte prompts cost a memory compare, never a stringify.
 */
export function sameData(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || !left || !right) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  const leftKeys = Object.keys(left);
  if (leftKeys.length !== Object.keys(right).length) return false;
  return leftKeys.every(
    (key) =>
      Object.hasOwn(right, key) &&
      sameData((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]),
  );
}

/**
 * The debounce and cancellation, outside React so they can be tested alone: each new input
 * restarts the debounce (at most `maxWaitMs` after the first input not yet counted); when it
 * ends, the request in flight (for older input) is aborted and the newest is sent; only the
 * newest answer lands.
 */
export function createTokenCountScheduler(options: {
  count: CountTokens;
  delayMs: number;
  /** Longest wait for a count while inputs keep coming (default: three debounces). */
  maxWaitMs?: number;
  onChange(state: TokenCountState): void;
  now?: () => number;
}): TokenCountScheduler {
  const now = options.now ?? Date.now;
  const maxWaitMs = options.maxWaitMs ?? options.delayMs * 3;
  let state = IDLE_TOKEN_COUNT;
  let latest: TokenCountInput | null = null;
  /** When the oldest input not yet sent arrived (null: none is waiting). */
  let waitingSince: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let controller: AbortController | null = null;
  let disposed = false;

  const emit = (next: TokenCountState) => {
    state = next;
    if (!disposed) options.onChange(state);
  };

  const clearTimer = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  function send(): void {
    timer = null;
    waitingSince = null;
    const input = latest;
    if (input === null) return;
    controller?.abort();
    const mine = new AbortController();
    controller = mine;
    options.count(input, mine.signal).then(
      (result) => {
        if (controller !== mine) return;
        controller = null;
        emit({ result, counting: waitingSince !== null, error: null, current: latest === input });
      },
      (error: unknown) => {
        if (controller !== mine || isAbort(error)) return;
        controller = null;
        emit({
          ...state,
          counting: waitingSince !== null,
          error: error instanceof Error ? error : new Error(String(error)),
          current: false,
        });
      },
    );
  }

  return {
    schedule(input) {
      if (sameData(input, latest)) return;
      latest = input;
      clearTimer();
      if (input === null) {
        waitingSince = null;
        controller?.abort();
        controller = null;
        emit(IDLE_TOKEN_COUNT);
        return;
      }
      waitingSince ??= now();
      emit({ ...state, counting: true, current: false });
      const wait = Math.max(0, Math.min(options.delayMs, waitingSince + maxWaitMs - now()));
      timer = setTimeout(send, wait);
    },
    dispose() {
      disposed = true;
      clearTimer();
      controller?.abort();
    },
  };
}

/** The page's count worker, made on first use (one per page). */
let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, (answer: CountTokensWorkerAnswer) => void>();

function countWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL("../client/count-tokens-worker.ts", import.meta.url), {
    type: "module",
  });
  worker.onmessage = ({ data }: MessageEvent<CountTokensWorkerAnswer>) => {
    pending.get(data.id)?.(data);
    pending.delete(data.id);
  };
  return worker;
}

/** `POST /v1beta/{model}:countTokens` with `generateContentRequest`, written and sent by the worker. */
export const countTokensRequest: CountTokens = ({ model, request }, signal) =>
  new Promise((resolve, reject) => {
    const id = ++nextId;
    const abort = () => {
      const message: CountTokensWorkerRequest = { cancel: id };
      countWorker().postMessage(message);
    };
    pending.set(id, (answer) => {
      signal.removeEventListener("abort", abort);
      if ("result" in answer) resolve(answer.result);
      else if ("error" in answer)
        reject(
          new ApiError(
            answer.error.httpStatus,
            answer.error.rpcStatus as RpcStatus,
            answer.error.message,
          ),
        );
      else reject(new DOMException("The count was aborted.", "AbortError"));
    });
    signal.addEventListener("abort", abort, { once: true });
    const message: CountTokensWorkerRequest = { id, model, request };
    countWorker().postMessage(message);
  });

/** The live count of `input` (null: nothing to count), debounced by `delayMs`. */
export function useTokenCount(
  input: TokenCountInput | null,
  delayMs = 400,
  count: CountTokens = countTokensRequest,
): TokenCountState {
  const [state, setState] = useState<TokenCountState>(IDLE_TOKEN_COUNT);
  const scheduler = useRef<TokenCountScheduler | null>(null);
  useEffect(() => {
    const created = createTokenCountScheduler({ count, delayMs, onChange: setState });
    scheduler.current = created;
    return () => {
      created.dispose();
      scheduler.current = null;
    };
  }, [count, delayMs]);
  // Compared by identity here (callers memoise it), by content in the scheduler.
  useEffect(() => {
    scheduler.current?.schedule(input);
  }, [input, count, delayMs]);
  return state;
}
