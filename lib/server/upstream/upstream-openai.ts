import "server-only";
import type { OwnershipStore } from "@/lib/db/stores/ownership-store";
import type { OperationContext, OpenAIAnswer, PassedThrough } from "@/lib/gemini/backend/contract";
import { ResourceNames } from "@/lib/gemini/resource-names";
import type { Steps } from "@/lib/gemini/steps";
import { runInSlices } from "@/lib/engine/time-slices";
import { assertOwnsAll } from "./request-references";
import { scrubbedStream } from "./unmodelled-methods";
import type { UpstreamClient, UpstreamResponse } from "./upstream-client";
import { API, header } from "./upstream-resources";

/**
 * The OpenAI-compatible endpoint through the gateway: the client's body forwarded as it was
 * received (`context.received`, never written again), with the server's key as the bearer
 * token the endpoint takes, and the upstream's answer passed on as it arrives (a stream event
 * by event), scrubbed of the key and the upstream's address. Before anything goes upstream,
 * every string of the body that is, as a whole, a resource's name, path or URL
 * (lib/gemini/resource-names: `extra_body.google.cached_content`, a file part's `file_id`, an
 * image URL naming a stored file) must name the caller's own resource: anything else is the
 * service's refusal, never forwarded. Prose that mentions a name is text, not a reference
 * (nothing in this endpoint fetches what a message says).
 */

/** The resources a body's strings name as whole values, walked without recursion, in slices. */
function* namedSteps(body: unknown, names: ResourceNames): Steps {
  const stack: unknown[] = [body];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === "string") names.addWhole(value);
    else if (typeof value === "object" && value !== null)
      for (const child of Array.isArray(value) ? value : Object.values(value)) {
        stack.push(child);
        yield;
      }
  }
}

/** The resources `body` names (a small body at once, a large one in slices). */
export async function namedResources(body: unknown): Promise<ResourceNames> {
  const names = new ResourceNames();
  await runInSlices(namedSteps(body, names));
  return names;
}

export class UpstreamOpenAI {
  constructor(
    private readonly client: UpstreamClient,
    private readonly ownership: OwnershipStore,
  ) {}

  private passedThrough(response: UpstreamResponse): { passedThrough: PassedThrough } {
    const sent = header(response, "content-type");
    const contentType = sent === undefined ? undefined : this.client.scrub.text(sent);
    return {
      passedThrough: {
        status: response.status,
        ...(contentType ? { contentType } : {}),
        body: scrubbedStream(response.body, this.client.scrub),
      },
    };
  }

  /** POSTs `body` (as received) to `openai/{path}` once the resources it names are the caller's. */
  async post(path: string, body: unknown, context: OperationContext) {
    const names = await namedResources(body);
    await assertOwnsAll(names.list(), {
      ownerId: context.caller.ownerId,
      ownership: this.ownership,
    });
    const received = context.received;
    // Retried only until the upstream answers: after that, a stream passes on as it comes.
    const response = await this.client.open({
      method: "POST",
      target: `${API}/openai/${path}`,
      ...(received ? { jsonBytes: received.bytes } : { json: body }),
      bearerKey: true,
      signal: context.signal,
      safety: "idempotent",
    });
    return this.passedThrough(response);
  }

  async get<Value>(path: string, context: OperationContext): Promise<OpenAIAnswer<Value>> {
    const response = await this.client.open({
      method: "GET",
      target: `${API}/openai/${path}`,
      bearerKey: true,
      signal: context.signal,
      safety: "idempotent",
    });
    return this.passedThrough(response);
  }
}
