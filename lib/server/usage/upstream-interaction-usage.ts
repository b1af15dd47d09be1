import "server-only";
import type { Caller } from "@/lib/gemini/backend/contract";
import type { Interaction, InteractionEvent } from "@/lib/gemini/interactions/types";
import { logger } from "../config/logger";
import { dataStores } from "../persistence/database-handle";
import { recordAnswerUsage } from "./answer-usage";
import { interactionUsageMetadata } from "./usage-shapes";

/**
 * Gateway mode: a background interaction runs at the upstream after its create has answered,
 * and what it spent is first seen when its owner reads it ended (a get, a cancel, or a stream
 * to its `interaction.completed`). Its create marks it awaited; the first read that finds it
 * ended takes the mark (once, on any instance) and records its usage for the reader (the
 * interaction's workspace, with the reader's person and key). Reads of other interactions
 * find no mark and record nothing (their usage was recorded as their create answered).
 * Off the request's path. (The local engine records a background run's usage as it ends.)
 */

/** How long a mark waits for a read (the upstream keeps an interaction 55 days). */
const MARK_LIFETIME_MS = 55 * 24 * 3_600_000;

/** Marks being written in this process, by interaction id: a read of it waits for its mark. */
const marking = new Map<string, Promise<void>>();

function markName(id: string): string {
  return `interaction:${id}`;
}

/** A background interaction just created upstream (what its create answered). */
export function awaitUpstreamInteraction(caller: Caller, interaction: Interaction): void {
  const id = interaction.id;
  if (typeof id !== "string" || id === "") return;
  const written = (async () => {
    await (await dataStores()).usage.awaitRecording(markName(id), Date.now() + MARK_LIFETIME_MS);
  })()
    .catch((error: unknown) => logger.warn("marking an interaction's usage failed", error))
    .finally(() => {
      if (marking.get(id) === written) marking.delete(id);
    });
  marking.set(id, written);
  noteUpstreamInteraction(caller, interaction);
}

/** An interaction as a read saw it: its usage recorded if it ended and its mark is taken here. */
export function noteUpstreamInteraction(caller: Caller, interaction: Interaction): void {
  const usage = interaction.usage;
  if (!usage || interaction.status === "in_progress" || typeof interaction.id !== "string") return;
  const id = interaction.id;
  void (async () => {
    await marking.get(id);
    if (!(await (await dataStores()).usage.claimAwaited(markName(id)))) return;
    recordAnswerUsage(
      caller,
      interaction.model ?? interaction.agent ?? "",
      interactionUsageMetadata(usage),
    );
  })().catch((error: unknown) => logger.warn("recording an interaction's usage failed", error));
}

/**
 * The events of an upstream stream as they were, each interaction they carry noted; a
 * background create's stream (`created`) marks its interaction at its first event.
 */
export async function* notingUpstreamInteractions(
  events: AsyncIterable<InteractionEvent>,
  caller: Caller,
  created: boolean,
): AsyncGenerator<InteractionEvent> {
  let marked = !created;
  for await (const event of events) {
    if (event.event_type === "interaction.created" && !marked) {
      marked = true;
      awaitUpstreamInteraction(caller, event.interaction);
    } else if (event.event_type === "interaction.completed")
      noteUpstreamInteraction(caller, event.interaction);
    yield event;
  }
}
