"use client";

import { useEffect, useRef, useState } from "react";
import { readApiError } from "@/lib/gemini/client/read-api-error";
import type { CountTokensResponse, GenerateContentRequest } from "@/lib/gemini/types";

/**
 * The live token count of the next request: `countTokens` with the whole request as
 * `generateContentRequest`, debounced while the person types, and every request that a newer
 * input made stale aborted (its answer is never shown).
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

/** `POST /v1beta/{model}:countTokens` with `generateContentRequest`. */
export const countTokensRequest: CountTokens = async ({ model, request }, signal) => {
  const response = await fetch(`/v1beta/${model}:countTokens`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ generateContentRequest: { model, ...request } }),
    credentials: "same-origin",
    cache: "no-store",
    signal,
  });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as CountTokensResponse;
};

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
 * The debounce and cancellation, outside React so they can be tested alone: each new input
 * clears the pending timer and aborts the request in flight; only the newest answer lands.
 */
export function createTokenCountScheduler(options: {
  count: CountTokens;
  delayMs: number;
  onChange(state: TokenCountState): void;
}): TokenCountScheduler {
  let state = IDLE_TOKEN_COUNT;
  let lastKey: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let controller: AbortController | null = null;
  let disposed = false;

  const emit = (next: TokenCountState) => {
    state = next;
    if (!disposed) options.onChange(state);
  };

  const stop = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    controller?.abort();
    controller = null;
  };

  return {
    schedule(input) {
      const key = input === null ? null : JSON.stringify(input);
      if (key === lastKey) return;
      lastKey = key;
      stop();
      if (input === null) {
        emit(IDLE_TOKEN_COUNT);
        return;
      }
      emit({ ...state, counting: true, current: false });
      timer = setTimeout(() => {
        timer = null;
        const mine = new AbortController();
        controller = mine;
        options.count(input, mine.signal).then(
          (result) => {
            if (controller !== mine) return;
            controller = null;
            emit({ result, counting: false, error: null, current: true });
          },
          (error: unknown) => {
            if (controller !== mine || isAbort(error)) return;
            controller = null;
            emit({
              ...state,
              counting: false,
              error: error instanceof Error ? error : new Error(String(error)),
              current: false,
            });
          },
        );
      }, options.delayMs);
    },
    dispose() {
      disposed = true;
      stop();
    },
  };
}

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
  const key = input === null ? null : JSON.stringify(input);
  useEffect(() => {
    scheduler.current?.schedule(key === null ? null : (JSON.parse(key) as TokenCountInput));
  }, [key, count, delayMs]);
  return state;
}
