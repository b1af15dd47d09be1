import "server-only";
import type { OwnershipStore } from "@/lib/db/stores/ownership-store";
import type { InteractionBody, OperationContext } from "@/lib/gemini/backend/contract";
import { interactionNotFound, invalidInteractionField } from "@/lib/gemini/interactions/errors";
import { namedInBodySteps, type NamedResource } from "@/lib/gemini/interactions/named-resources";
import type {
  Interaction,
  InteractionEvent,
  InteractionGetQuery,
} from "@/lib/gemini/interactions/types";
import { fileDenied } from "@/lib/gemini/resource-errors";
import { runInSlices } from "@/lib/engine/time-slices";
import type { UpstreamSettings } from "../config/env";
import { ownershipDenied } from "../persistence/ownership";
import { saysGone } from "./gone-resources";
import { readUpstreamInteractionEvents } from "./interaction-event-reader";
import type { UpstreamClient, UpstreamResponse } from "./upstream-client";
import { malformedUpstream } from "./upstream-errors";
import { API } from "./upstream-resources";

/**
 * The Interactions API through the gateway. A create body goes upstream byte for byte as the
 * client sent it, once every resource it names is the caller's (lib/gemini/interactions/
 * named-resources: any string, in any field, known or not) and so is the interaction it
 * continues; anything else is refused before anything goes upstream, in the words the local
 * engine uses for a missing one. The id of each interaction created is recorded as its
 * creator's (from the answer, or the stream's first event), and get, cancel and delete go
 * upstream only for it. Streams pass through event by event.
 */

/** How long the upstream keeps an interaction (the service's paid tier: 55 days). */
const INTERACTION_LIFETIME_MS = 55 * 24 * 3_600_000;
/** The ids the upstream hands out (`v1_` and base64url); nothing else is put in an upstream path. */
const INTERACTION_ID = /^[A-Za-z0-9_-]{1,512}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export class UpstreamInteractions {
  constructor(
    private readonly client: UpstreamClient,
    private readonly ownership: OwnershipStore,
    private readonly settings: UpstreamSettings,
  ) {}

  /** Refuses the body unless every resource it names is the caller's (one query for their owners). */
  private async checkNames(body: InteractionBody, context: OperationContext): Promise<void> {
    const upstreamOrigin = new URL(this.settings.baseUrl).origin;
    const found = await runInSlices(namedInBodySteps(body.json));
    const named: NamedResource[] = [];
    for (const item of found) {
      if (item.kind === "resource") named.push(item.resource);
      // An address on the upstream's own origin that names no resource only it could read.
      else if (originOf(item.url) === upstreamOrigin) throw fileDenied(item.url.slice(0, 200));
    }
    const owners = await this.ownership.ownersOf(named);
    for (const { kind, name } of named) {
      if (owners.get(`${kind}:${name}`) === context.caller.ownerId) continue;
      if (kind === "interaction")
        throw invalidInteractionField(
          "previous_interaction_id",
          `interaction '${name.slice(0, 200)}' was not found.`,
        );
      throw ownershipDenied(kind, name);
    }
  }

  /** Records an interaction the upstream just created as the caller's (unless it keeps nothing). */
  private async adopt(id: unknown, body: InteractionBody, context: OperationContext) {
    if (typeof id !== "string" || !INTERACTION_ID.test(id))
      throw malformedUpstream("an interaction without an id");
    if (isObject(body.json) && body.json.store === false) return;
    await this.ownership.record("interaction", id, context.caller.ownerId, {
      expiresAt: Date.now() + INTERACTION_LIFETIME_MS,
    });
  }

  private createCall(body: InteractionBody, context: OperationContext) {
    return {
      method: "POST" as const,
      target: `${API}/interactions`,
      rawJson: body.bytes,
      signal: context.signal,
      // No idempotency key exists upstream: a create is retried only when it never left.
      safety: "create" as const,
    };
  }

  async create(body: InteractionBody, context: OperationContext): Promise<Interaction> {
    await this.checkNames(body, context);
    const created = await this.client.json<Interaction>(this.createCall(body, context));
    await this.adopt(created?.id, body, context);
    return created;
  }

  async *streamCreate(
    body: InteractionBody,
    context: OperationContext,
  ): AsyncGenerator<InteractionEvent> {
    await this.checkNames(body, context);
    const response = await this.client.open(this.createCall(body, context));
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
      !(await this.ownership.owns("interaction", id, context.caller.ownerId))
    )
      throw interactionNotFound(id);
    return `${API}/interactions/${id}`;
  }

  /** Sends a request about interaction `id`; an answer saying it is gone ends its record. */
  private async onInteraction<Answer>(id: string, send: () => Promise<Answer>): Promise<Answer> {
    try {
      return await send();
    } catch (error) {
      if (saysGone(error, { kind: "interaction", name: id }))
        await this.ownership.forget("interaction", id);
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
    await this.ownership.forget("interaction", id);
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

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
