/**
 * The interaction resource and its lifecycle events as the service writes them (recorded
 * 2026-05 on): the full resource `{id, status, usage, created, updated, service_tier, steps,
 * object, model|agent}`, the short one of `interaction.created`, the one without steps of
 * `interaction.completed`, and the `interaction.status_update` event. Times are RFC 3339 to the
 * second, as recorded.
 */
import type {
  Interaction,
  InteractionEvent,
  InteractionStatus,
  InteractionUsage,
  Step,
} from "@/lib/gemini/interactions/types";

/** What an ended interaction keeps besides its row: its steps and usage. */
export interface InteractionResult {
  steps: Step[];
  usage?: InteractionUsage;
}

/** The fields every form of the resource shares. */
export interface InteractionHead {
  id: string;
  shown: { model: string } | { agent: string };
  createTime: number;
  updateTime: number;
}

/** A step with its `type` last, as the service writes steps (recorded: `{"signature", "type"}`). */
export function typeLast(step: Step): Step {
  const { type, ...fields } = step;
  return { ...fields, type } as Step;
}

export function wireTime(epochMilliseconds: number): string {
  return new Date(epochMilliseconds).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The resource as get, create (unary) and cancel answer it. */
export function interactionResource(
  head: InteractionHead,
  status: InteractionStatus,
  result: InteractionResult | null,
  extra: { input?: Step[] } = {},
): Interaction {
  return {
    id: head.id,
    status,
    ...(result?.usage ? { usage: result.usage } : {}),
    created: wireTime(head.createTime),
    updated: wireTime(head.updateTime),
    ...(result ? { service_tier: "standard", steps: result.steps } : {}),
    ...(extra.input ? { input: extra.input.map(typeLast) } : {}),
    object: "interaction",
    ...head.shown,
  };
}

export function createdEvent(head: InteractionHead): InteractionEvent {
  return {
    interaction: { id: head.id, status: "in_progress", object: "interaction", ...head.shown },
    event_type: "interaction.created",
  };
}

export function statusEvent(id: string, status: InteractionStatus): InteractionEvent {
  return { interaction_id: id, status, event_type: "interaction.status_update" };
}

export function completedEvent(
  head: InteractionHead,
  status: InteractionStatus,
  usage: InteractionUsage | undefined,
): InteractionEvent {
  return {
    interaction: {
      id: head.id,
      status,
      ...(usage ? { usage } : {}),
      created: wireTime(head.createTime),
      updated: wireTime(head.updateTime),
      service_tier: "standard",
      object: "interaction",
      ...head.shown,
    },
    event_type: "interaction.completed",
  };
}

/** An error event: what a stream ends with when its run fails after it began. */
export function errorEvent(code: string, message: string): InteractionEvent {
  return { error: { code, message }, event_type: "error" };
}
