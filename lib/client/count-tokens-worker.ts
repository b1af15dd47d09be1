/**
 * The token counter's worker: it writes the countTokens body (megabytes when a book is in the
 * prompt) and sends it, so neither the serialising nor the request ever runs on the page's
 * main thread. One message per count (`{id, model, request}`), `{cancel: id}` aborts one; the
 * answer is `{id, result}` or `{id, error}` (the service's error fields, plain data).
 */
import { readApiError } from "@/lib/gemini/client/read-api-error";
import type { CountTokensResponse, GenerateContentRequest } from "@/lib/gemini/types";

export type CountTokensWorkerRequest =
  { id: number; model: string; request: GenerateContentRequest } | { cancel: number };

export type CountTokensWorkerAnswer =
  | { id: number; result: CountTokensResponse }
  | { id: number; error: { httpStatus: number; rpcStatus: string; message: string } }
  | { id: number; aborted: true };

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<CountTokensWorkerRequest>) => void) | null;
  postMessage(answer: CountTokensWorkerAnswer): void;
};
const running = new Map<number, AbortController>();

async function count(id: number, model: string, request: GenerateContentRequest): Promise<void> {
  const controller = new AbortController();
  running.set(id, controller);
  try {
    const response = await fetch(`/v1beta/${model}:countTokens`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ generateContentRequest: { model, ...request } }),
      credentials: "same-origin",
      cache: "no-store",
      signal: controller.signal,
    });
    if (!response.ok) {
      const error = await readApiError(response);
      scope.postMessage({
        id,
        error: { httpStatus: error.httpStatus, rpcStatus: error.rpcStatus, message: error.message },
      });
      return;
    }
    scope.postMessage({ id, result: (await response.json()) as CountTokensResponse });
  } catch (error) {
    if (controller.signal.aborted) scope.postMessage({ id, aborted: true });
    else
      scope.postMessage({
        id,
        error: {
          httpStatus: 0,
          rpcStatus: "UNAVAILABLE",
          message: `Could not reach the studio server: ${error instanceof Error ? error.message : String(error)}`,
        },
      });
  } finally {
    running.delete(id);
  }
}

scope.onmessage = ({ data }) => {
  if ("cancel" in data) running.get(data.cancel)?.abort();
  else void count(data.id, data.model, data.request);
};
