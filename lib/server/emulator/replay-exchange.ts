import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { RecordedExchange } from "@/lib/engine/emulator/cassettes/cassette-format";
import {
  BINARY,
  type ReplayOptions,
  type ReplayStore,
} from "@/lib/engine/emulator/cassettes/replay-store";
import { sleep } from "@/lib/engine/emulator/sleep";
import { requestWithBody } from "../http/request-copy";
import { MAX_JSON_BODY_BYTES } from "../http/request-body";
import { readBodyBytes } from "./body-bytes";

/**
 * Answers a request of the local engine from the caller's cassettes when one matches: the
 * recorded status, content type and upload headers (the session URL pointed at this studio),
 * and the body byte for byte, at its recorded pace or at once. The request's body is read to
 * match it (an upload chunk's bytes never are); on a miss the bytes go on to the engine's
 * handler in a request of their own, or, when a cassette says so, a 501 names the miss.
 */
export async function replayExchange(options: {
  store: ReplayStore;
  ownerId: string;
  request: Request;
  url: URL;
  operation: string;
  signal: AbortSignal;
}): Promise<{ response: Response; exchangeId: string } | { request: Request }> {
  const { store, ownerId, request, url } = options;
  if (store.isEmpty(ownerId)) return { request };
  const chunk = options.operation.endsWith(".chunk");
  const bytes = chunk || !request.body ? null : await readBodyBytes(request, MAX_JSON_BODY_BYTES);
  const found = store.find(ownerId, {
    method: request.method,
    path: url.pathname,
    query: url.searchParams,
    body: chunk ? BINARY : bytes === null || bytes.byteLength === 0 ? undefined : parsedBody(bytes),
  });
  if ("exchange" in found) {
    if (chunk) await request.body?.cancel().catch(() => undefined);
    return {
      response: await recordedResponse(found.exchange, found.options, url, options.signal),
      exchangeId: found.exchange.id ?? "",
    };
  }
  if (found.miss === "fail") {
    throw new ApiError(
      501,
      "UNIMPLEMENTED",
      `No recorded exchange matches ${request.method} ${url.pathname} in your cassettes (a cassette says to fail on a miss rather than let the engine answer).`,
    );
  }
  if (bytes === null) return { request };
  return { request: requestWithBody(request, bytes) };
}

function parsedBody(bytes: Uint8Array): unknown {
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Recorded response headers clients read; an upload session URL is pointed at this studio. */
function replayedHeaders(exchange: RecordedExchange, url: URL): Headers {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  for (const [name, value] of Object.entries(exchange.responseHeaders)) {
    const lower = name.toLowerCase();
    if (lower === "content-type" || lower.startsWith("x-goog-upload-")) {
      headers.set(lower, lower === "x-goog-upload-url" ? ownUploadUrl(value, url) : value);
    }
  }
  return headers;
}

function ownUploadUrl(value: string, url: URL): string {
  try {
    const recorded = new URL(value, url.origin);
    recorded.searchParams.delete("key");
    return `${url.origin}${recorded.pathname}${recorded.search}`;
  } catch {
    return value;
  }
}

async function recordedResponse(
  exchange: RecordedExchange,
  options: ReplayOptions,
  url: URL,
  signal: AbortSignal,
): Promise<Response> {
  const headers = replayedHeaders(exchange, url);
  const init = { status: exchange.status, headers };
  const timing = options.pace === "recorded" ? exchange.responseTiming : undefined;
  if (!timing)
    return new Response(exchange.responseBody === "" ? null : exchange.responseBody, init);
  const started = performance.now();
  await sleep(timing.headersMs, signal);
  const bytes = Buffer.from(exchange.responseBody);
  const chunks = timing.chunks;
  let index = 0;
  let offset = 0;
  // When the recording's moment 0 fell on this clock: the request's start until the first piece
  // leaves, then that piece's actual departure less its offset, so a first piece held up on its
  // way out (the headers' write, a busy loop) moves the rest with it and the gaps stay as recorded.
  let origin = started;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (index >= chunks.length) {
          controller.close();
          return;
        }
        const [at, length] = chunks[index++]!;
        // Each piece leaves at its recorded offset, not after the last piece's write.
        await sleep(Math.max(0, origin + at - performance.now()), signal).catch(() => undefined);
        if (index === 1) origin = performance.now() - at;
        controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + length)));
        offset += length;
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, init);
}
