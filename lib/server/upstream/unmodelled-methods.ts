import "server-only";
import type { OwnershipStore } from "@/lib/db/stores/ownership-store";
import type {
  OperationContext,
  PassedThrough,
  UnmodelledCall,
} from "@/lib/gemini/backend/contract";
import { ResourceNames } from "@/lib/gemini/resource-names";
import { assertOwnsAll } from "./request-references";
import type { Scrubber } from "../config/scrubber";
import { webStreamOf, type UpstreamClient, type UpstreamResponse } from "./upstream-client";
import { header } from "./upstream-resources";

/**
 * Methods the gateway does not model, forwarded because the operator listed them
 * (GATEWAY_FORWARD_METHODS): with the caller authenticated and limited like any other, every
 * resource named in the path, the query or anywhere in the body checked against the caller
 * (nothing of an unknown body is known, so every string counts), the body sent as received
 * and the answer passed on as it arrives, scrubbed. What the gateway cannot do for such a
 * method is record what it creates or filter what it lists (README, "Forwarding methods").
 */

/** Answers whose text is scrubbed as it passes; other types (media) pass as bytes. */
const TEXTUAL = /^(?:text\/|application\/(?:[\w.+-]*\+)?json\b)/i;

/** The path for the upstream: each segment percent-encoded as a path segment, `:` kept. */
function encodedPath(path: string): string {
  return path
    .split("/")
    .map((segment) => encodeURIComponent(segment).replace(/%3A/gi, ":").replace(/%40/g, "@"))
    .join("/");
}

/** An upstream body as a web stream of its text, scrubbed across pieces. */
export function scrubbedStream(
  body: UpstreamResponse["body"],
  scrub: Scrubber,
): ReadableStream<Uint8Array> {
  const pieces = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const decoder = new TextDecoder("utf-8");
  const encoder = new TextEncoder();
  const scrubbing = scrub.pieces();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          for (;;) {
            const { done, value } = await pieces.next();
            if (done) {
              const rest = scrubbing.push(decoder.decode()) + scrubbing.end();
              if (rest !== "") controller.enqueue(encoder.encode(rest));
              controller.close();
              return;
            }
            const text = scrubbing.push(decoder.decode(value, { stream: true }));
            if (text !== "") {
              controller.enqueue(encoder.encode(text));
              return;
            }
          }
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        if (!body.destroyed) body.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

export async function forwardUnmodelled(
  client: UpstreamClient,
  ownership: OwnershipStore,
  call: UnmodelledCall,
  context: OperationContext,
): Promise<PassedThrough> {
  const names = new ResourceNames();
  names.addAnywhere(call.path);
  for (const [name, value] of call.query) {
    names.addAnywhere(name);
    names.addAnywhere(value);
  }
  for (const name of context.received?.findings.mentioned ?? []) names.add(name);
  await assertOwnsAll(names.list(), { ownerId: context.caller.ownerId, ownership });
  const body = context.received?.size ? context.received.bytes : undefined;
  const response = await client.open({
    method: call.method,
    target: `/${call.version}/${encodedPath(call.path)}`,
    query: Object.fromEntries(call.query),
    jsonBytes: body,
    signal: context.signal,
    // Nothing says what an unknown method does: retried only when it never left.
    safety: call.method === "GET" ? "idempotent" : "create",
  });
  const sent = header(response, "content-type");
  const contentType = sent === undefined ? undefined : client.scrub.text(sent);
  return {
    status: response.status,
    ...(contentType ? { contentType } : {}),
    body:
      contentType === undefined || TEXTUAL.test(contentType)
        ? scrubbedStream(response.body, client.scrub)
        : webStreamOf(response.body),
  };
}
