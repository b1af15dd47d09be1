import "server-only";
import type { OwnershipStore } from "@/lib/db/stores/ownership-store";
import type { OperationContext, OpenAIAnswer, PassedThrough } from "@/lib/gemini/backend/contract";
import { assertOwnsAll } from "./request-references";
import { scrubbedStream } from "./unmodelled-methods";
import type { UpstreamClient, UpstreamResponse } from "./upstream-client";
import { API, header } from "./upstream-resources";

/**
 * The OpenAI-compatible endpoint through the gateway: the client's body forwarded as it was
 * received (`context.received`, never written again), with the server's key as the bearer
 * token the endpoint takes, and the upstream's answer passed on as it arrives (a stream event
 * by event), scrubbed of the key and the upstream's address. The body was read as the gateway
 * reads what it does not model (lib/gemini/openai/openai-envelope: every field but `model` and
 * `stream` unknown, so every resource named anywhere in it is among its findings); before
 * anything goes upstream each of those must be the caller's, or the request is the service's
 * refusal, never forwarded.
 */

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

  /**
   * POSTs the body as received to `openai/{path}` once the resources it names are the caller's;
   * `held` when the body asked for a stream (its answer is then held open while it lasts).
   */
  async post(path: string, context: OperationContext, { held = false } = {}) {
    const received = context.received;
    if (!received) throw new Error("an OpenAI-compatible request without its body as received");
    await assertOwnsAll(received.findings.mentioned, {
      ownerId: context.caller.ownerId,
      ownership: this.ownership,
    });
    // Retried only until the upstream answers: after that, a stream passes on as it comes.
    const response = await this.client.open({
      method: "POST",
      target: `${API}/openai/${path}`,
      jsonBytes: received.bytes,
      bearerKey: true,
      held,
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
