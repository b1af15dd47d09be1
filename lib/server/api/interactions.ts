import "server-only";
import { invalidInteractionField } from "@/lib/gemini/interactions/errors";
import type { InteractionEvent, InteractionGetQuery } from "@/lib/gemini/interactions/types";
import { assertKeyMayCall, bodyModel } from "../auth/key-policy";
import { acquireStreamSlot, releaseWhenDone } from "../http/limits";
import { readOperationBody } from "../http/request-body";
import { interactionErrorResponse, interactionJsonResponse } from "../http/interaction-responses";
import { interactionEventStreamResponse } from "../http/sse-response";
import { recordAnswerUsage, recordingUsage } from "../usage/answer-usage";
import {
  awaitUpstreamInteraction,
  noteUpstreamInteraction,
  notingUpstreamInteractions,
} from "../usage/upstream-interaction-usage";
import { interactionUsageMetadata } from "../usage/usage-shapes";
import type { RequestContext } from "./request-context";

/**
 * The Interactions API (`interactions`, `interactions/{id}`, `interactions/{id}/cancel`): its
 * own JSON (snake_case, compact) and its own error body (interaction-responses.ts). A create
 * body is read once and handed to the backend with its bytes; whether it streams is its
 * `stream` field. A stream takes one of the caller's stream slots while it is open.
 */

function interactionId(context: RequestContext): string {
  return context.params.interaction!;
}

/** A query flag: `true` or `false`, absent meaning false. */
function flag(url: URL, names: string[]): boolean {
  for (const name of names) {
    const value = url.searchParams.get(name);
    if (value === null) continue;
    if (value === "true" || value === "True") return true;
    if (value === "false" || value === "False" || value === "") return false;
    throw invalidInteractionField(name, `expected true or false, got "${value.slice(0, 40)}".`);
  }
  return false;
}

function getQuery(url: URL): InteractionGetQuery {
  const stream = flag(url, ["stream"]);
  const includeInput = flag(url, ["include_input", "includeInput"]);
  const lastEventId = url.searchParams.get("last_event_id") ?? url.searchParams.get("lastEventId");
  if (lastEventId !== null && !stream)
    throw invalidInteractionField("last_event_id", "can only be used with stream=true.");
  return { stream, includeInput, ...(lastEventId !== null ? { lastEventId } : {}) };
}

/** A stream of events as this API frames them, holding a stream slot until it ends. */
async function eventStream(
  context: RequestContext,
  open: () => AsyncIterable<InteractionEvent>,
): Promise<Response> {
  const release = await acquireStreamSlot(context.caller);
  try {
    const response = await interactionEventStreamResponse(
      open(),
      { signal: context.signal },
      interactionErrorResponse,
    );
    return releaseWhenDone(response, release, context.signal);
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * `POST interactions`: the interaction, or with `stream: true` its events. The gateway reads
 * the body as it forwards what it does not model (lib/gemini/interactions/envelope: only what
 * it must know, every other field looked through for resource names, the bytes kept to
 * forward); the engine takes the JSON and reads it strictly itself. A managed key's limits
 * hold for the model (or agent) the body names, and what the answer spends is recorded against
 * it: a stream's once its `interaction.completed` event carried it. A `background` create
 * answers before its run has spent anything: the local engine records its run's usage as it
 * ends; the gateway, when a read first finds it ended (upstream-interaction-usage.ts).
 */
export async function createInteractionHandler(context: RequestContext): Promise<Response> {
  const body: { stream?: unknown; model?: unknown; agent?: unknown; background?: unknown } =
    context.backend.mode === "upstream"
      ? await readOperationBody(context, "interactionEnvelope")
      : await readJsonObject(context);
  const model = bodyModel(body.model ?? body.agent);
  assertKeyMayCall(context.caller, model);
  const background = body.background === true;
  const upstream = context.backend.mode === "upstream";
  if (body.stream === true)
    return eventStream(context, () => {
      const events = context.backend.streamCreateInteraction(body, context);
      if (background)
        return upstream ? notingUpstreamInteractions(events, context.caller, true) : events;
      return recordingUsage(events, context.caller, model, (event) =>
        event.event_type === "interaction.completed"
          ? interactionUsageMetadata(event.interaction.usage)
          : undefined,
      );
    });
  const interaction = await context.backend.createInteraction(body, context);
  if (!background)
    recordAnswerUsage(context.caller, model, interactionUsageMetadata(interaction.usage));
  else if (upstream) awaitUpstreamInteraction(context.caller, interaction);
  return interactionJsonResponse(interaction);
}

/** The body's JSON (`{}` when empty); anything but an object is refused here. */
async function readJsonObject(context: RequestContext): Promise<Record<string, unknown>> {
  const json = await readOperationBody(context, "json");
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw invalidInteractionField("", "the request body must be a JSON object.");
  return json as Record<string, unknown>;
}

/** `GET interactions/{id}`: the interaction, or with `stream=true` its events (after `last_event_id`). */
export async function getInteractionHandler(context: RequestContext): Promise<Response> {
  const query = getQuery(context.url);
  const id = interactionId(context);
  const upstream = context.backend.mode === "upstream";
  if (query.stream)
    return eventStream(context, () => {
      const events = context.backend.streamInteraction(id, query, context);
      return upstream ? notingUpstreamInteractions(events, context.caller, false) : events;
    });
  const interaction = await context.backend.getInteraction(id, query, context);
  if (upstream) noteUpstreamInteraction(context.caller, interaction);
  return interactionJsonResponse(interaction);
}

/** `POST interactions/{id}/cancel`: the interaction as the cancel left it. */
export async function cancelInteractionHandler(context: RequestContext): Promise<Response> {
  const interaction = await context.backend.cancelInteraction(interactionId(context), context);
  if (context.backend.mode === "upstream") noteUpstreamInteraction(context.caller, interaction);
  return interactionJsonResponse(interaction);
}

/** `DELETE interactions/{id}`: `{}`. */
export async function deleteInteractionHandler(context: RequestContext): Promise<Response> {
  await context.backend.deleteInteraction(interactionId(context), context);
  return interactionJsonResponse({});
}
