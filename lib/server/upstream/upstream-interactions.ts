import "server-only";
import type { OwnershipStore } from "@/lib/db/stores/ownership-store";
import type { OperationContext } from "@/lib/gemini/backend/contract";
import { interactionNotFound, invalidInteractionField } from "@/lib/gemini/interactions/errors";
import type { InteractionEnvelope } from "@/lib/gemini/interactions/envelope";
import type {
  Interaction,
  InteractionEvent,
  InteractionGetQuery,
} from "@/lib/gemini/interactions/types";
import { ResourceNames } from "@/lib/gemini/resource-names";
import type { UpstreamSettings } from "../config/env";
import { saysGone } from "./gone-resources";
import { readUpstreamInteractionEvents } from "./interaction-event-reader";
import { assertOwnsAll } from "./request-references";
import type { UpstreamClient, UpstreamResponse } from "./upstream-client";
import { malformedUpstream } from "./upstream-errors";
import { API } from "./upstream-resources";

/**
 * The Interactions API through the gateway, which does not model it: a create body is read as
 * an unmodelled one (lib/gemini/forwarding-read: every string it holds, in any field, looked
 * through for the resources it names) and goes upstream as the client sent it
 * (`context.received`), once each of those resources, and the interaction it continues, is
 * the caller's; anything else is refused before anything goes upstream, in the words the local
 * engine uses for a missing one. Each interaction created is recorded as its creator's (from
 * the answer, or the stream's first event), and get, cancel and delete go upstream only for
 * it. Streams pass through event by event.
 */

/** How long the upstream keeps an interaction (the service's paid tier: 55 days). */
const INTERACTION_LIFETIME_MS = 55 * 24 * 3_600_000;
/** The ids the upstream hands out (`v1_` and base64url); nothing else is put in an upstream path. */
const INTERACTION_ID = /^[A-Za-z0-9_-]{1,512}$/;

/** The name an interaction's owner is recorded under (resource names spell it so). */
function recordName(id: string): string {
  return `interactions/${id}`;
}

export class UpstreamInteractions {
  constructor(
    private readonly client: UpstreamClient,
    private readonly ownership: OwnershipStore,
    private readonly settings: UpstreamSettings,
  ) {}

  /** Refuses the body unless every resource it names, and the interaction it continues, is the caller's. */
  private async checkNames(body: InteractionEnvelope, context: OperationContext): Promise<void> {
    const previous = body.previousInteractionId;
    if (previous !== undefined) {
      const owned =
        INTERACTION_ID.test(previous) &&
        (await this.ownership.owns("interaction", recordName(previous), context.caller.ownerId));
      if (!owned)
        throw invalidInteractionField(
          "previous_interaction_id",
          `interaction '${previous.slice(0, 200)}' was not found.`,
        );
    }
    const names = new ResourceNames();
    for (const name of context.received?.findings.mentioned ?? []) names.add(name);
    await assertOwnsAll(names.list(), {
      ownerId: context.caller.ownerId,
      ownership: this.ownership,
    });
  }

  /** Records an interaction the upstream just created as the caller's (unless it keeps nothing). */
  private async adopt(
    id: unknown,
    body: InteractionEnvelope,
    context: OperationContext,
  ): Promise<void> {
    if (typeof id !== "string" || !INTERACTION_ID.test(id))
      throw malformedUpstream("an interaction without an id");
    if (body.store === false) return;
    await this.ownership.record("interaction", recordName(id), context.caller.ownerId, {
      expiresAt: Date.now() + INTERACTION_LIFETIME_MS,
    });
  }

  /** The create as the client sent it; `held` when its answer is the interaction's event stream. */
  private createCall(context: OperationContext, held = false) {
    if (!context.received) throw new Error("an Interactions create without its body as received");
    return {
      method: "POST" as const,
      target: `${API}/interactions`,
      jsonBytes: context.received.bytes,
      held,
      signal: context.signal,
      // No idempotency key exists upstream: a create is retried only when it never left.
      safety: "create" as const,
    };
  }

  async create(body: InteractionEnvelope, context: OperationContext): Promise<Interaction> {
    await this.checkNames(body, context);
    const created = await this.client.json<Interaction>(this.createCall(context));
    await this.adopt(created?.id, body, context);
    return created;
  }

  async *streamCreate(
    body: InteractionEnvelope,
    context: OperationContext,
  ): AsyncGenerator<InteractionEvent> {
    await this.checkNames(body, context);
    const response = await this.client.open(this.createCall(context, true));
    let adopted = false;
    for await (const event of this.passOn(response)) {
      if (!adopted && event.event_type === "interaction.created") {
        await this.adopt(event.interaction?.id, body, context);
        adopted = true;
      }
      yield event;
    }
  }

  /** The interaction's upstream path, once the caller is its owner; not found otherwise. */
  private async owned(id: string, context: OperationContext): Promise<string> {
    if (
      !INTERACTION_ID.test(id) ||
      !(await this.ownership.owns("interaction", recordName(id), context.caller.ownerId))
    )
      throw interactionNotFound(id);
    return `${API}/interactions/${id}`;
  }

  /** Sends a request about interaction `id`; an answer saying it is gone ends its record. */
  private async onInteraction<Answer>(id: string, send: () => Promise<Answer>): Promise<Answer> {
    try {
      return await send();
    } catch (error) {
      if (saysGone(error, { kind: "interaction", name: recordName(id) }))
        await this.ownership.forget("interaction", recordName(id));
      throw error;
    }
  }

  async get(
    id: string,
    query: InteractionGetQuery,
    context: OperationContext,
  ): Promise<Interaction> {
    const target = await this.owned(id, context);
    return this.onInteraction(id, () =>
      this.client.json<Interaction>({
        method: "GET",
        target,
        query: { include_input: query.includeInput ? "true" : undefined },
        signal: context.signal,
        safety: "idempotent",
      }),
    );
  }

  async *stream(
    id: string,
    query: InteractionGetQuery,
    context: OperationContext,
  ): AsyncGenerator<InteractionEvent> {
    const target = await this.owned(id, context);
    const response = await this.onInteraction(id, () =>
      this.client.open({
        method: "GET",
        target,
        query: {
          stream: "true",
          last_event_id: query.lastEventId,
          include_input: query.includeInput ? "true" : undefined,
        },
        held: true,
        signal: context.signal,
        safety: "idempotent",
      }),
    );
    yield* this.passOn(response);
  }

  async cancel(id: string, context: OperationContext): Promise<Interaction> {
    const target = await this.owned(id, context);
    // Cancelling twice leaves the same state: safe to retry.
    return this.onInteraction(id, () =>
      this.client.json<Interaction>({
        method: "POST",
        target: `${target}/cancel`,
        signal: context.signal,
        safety: "idempotent",
      }),
    );
  }

  async delete(id: string, context: OperationContext): Promise<void> {
    const target = await this.owned(id, context);
    await this.onInteraction(id, () =>
      this.client.json({ method: "DELETE", target, signal: context.signal, safety: "idempotent" }),
    );
    await this.ownership.forget("interaction", recordName(id));
  }

  /** The upstream's events, each passed on the moment it is complete; the exchange ends with the stream. */
  private async *passOn(response: UpstreamResponse): AsyncGenerator<InteractionEvent> {
    try {
      yield* readUpstreamInteractionEvents(response.body, {
        scrub: this.client.scrub,
        timeouts: this.settings,
      });
    } finally {
      if (!response.body.destroyed) response.body.destroy();
    }
  }
}
