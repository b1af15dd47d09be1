/**
 * The Backend's Interactions operations in the local engine: each create body is read once
 * (lib/gemini/interactions/read-create), then the InteractionService does the work. A stream
 * of a foreground create carries no event ids, as the service's do (recorded 2026-05 on: none
 * of its foreground streams has one); the stream of a background interaction, and any stream
 * read again with `get`, carries them, so a client can resume it after any event.
 */
import type { Backend } from "@/lib/gemini/backend/contract";
import { readCreateInteractionRequest } from "@/lib/gemini/interactions/read-create";
import type { InteractionEvent } from "@/lib/gemini/interactions/types";
import type { InteractionService } from "./interaction-service";

export type InteractionBackendOperations = Pick<
  Backend,
  | "createInteraction"
  | "streamCreateInteraction"
  | "getInteraction"
  | "streamInteraction"
  | "cancelInteraction"
  | "deleteInteraction"
>;

function withoutEventId(event: InteractionEvent): InteractionEvent {
  if (event.event_id === undefined) return event;
  const { event_id: _eventId, ...rest } = event;
  return rest as InteractionEvent;
}

export function interactionOperations(service: InteractionService): InteractionBackendOperations {
  return {
    async createInteraction(body, context) {
      const create = { ...readCreateInteractionRequest(body), stream: false };
      return service.answer(await service.start(create, context.caller, context.signal));
    },
    async *streamCreateInteraction(body, context) {
      const create = { ...readCreateInteractionRequest(body), stream: true };
      const started = await service.start(create, context.caller, context.signal);
      const events = started.live.stored
        ? service.events(started.head.id, 0, context.signal)
        : started.live.follow(0, context.signal);
      for await (const event of events) yield started.background ? event : withoutEventId(event);
    },
    async getInteraction(id, query, context) {
      return service.get(id, context.caller, query);
    },
    async *streamInteraction(id, query, context) {
      yield* await service.follow(id, context.caller, query, context.signal);
    },
    async cancelInteraction(id, context) {
      return service.cancel(id, context.caller);
    },
    async deleteInteraction(id, context) {
      await service.delete(id, context.caller);
    },
  };
}
