import "server-only";
import { channel } from "node:diagnostics_channel";

/**
 * Named points on an API request's path (authenticated, body read, upstream answered...),
 * published on a diagnostics channel for a bench to time (bench/request-stages-probe.cjs
 * subscribes when GENSTUDIO_STAGES_PROBE names a file). With no subscriber, which is how the
 * server runs, a mark is one property read: nothing is timed, kept or written.
 */
const stages = channel("genstudio:request-stage");

export function markStage(stage: string): void {
  if (stages.hasSubscribers) stages.publish(stage);
}
