/**
 * The text index of scenarios: each scenario whose match requires some text (its textContains,
 * or the literal every match of its pattern contains) is filed under the three-character piece
 * of that text that the fewest others share, so a request's text names, piece by piece, the few
 * scenarios it could match, however many are registered.
 */
import type { Scenario } from "./scenario-registry";

/** Where a scenario's required text is looked for, and in which case. */
export interface Anchor {
  text: string;
  textIn: "lastUserTurn" | "anywhere";
  lowerCase: boolean;
}

/** Anchors are indexed by one of their three-character pieces; shorter ones are not indexed. */
export const PIECE = 3;

/**
 * Scenarios with an anchor, each filed under the piece of its anchor that the fewest others
 * share: a request's text then names, piece by piece, the few scenarios it could match.
 */
export class AnchorIndex {
  private readonly buckets = new Map<string, Scenario[]>();

  add(scenario: Scenario, anchor: string): void {
    let best: string | undefined;
    let bestSize = Number.POSITIVE_INFINITY;
    for (let at = 0; at + PIECE <= anchor.length; at++) {
      const piece = anchor.slice(at, at + PIECE);
      const size = this.buckets.get(piece)?.length ?? 0;
      if (size < bestSize) [best, bestSize] = [piece, size];
    }
    let bucket = this.buckets.get(best!);
    if (!bucket) this.buckets.set(best!, (bucket = []));
    bucket.push(scenario);
  }

  /** The scenarios filed under any piece of `text`, once each. */
  candidates(text: string, into: Set<Scenario>): void {
    if (this.buckets.size === 0) return;
    for (let at = 0; at + PIECE <= text.length; at++) {
      const bucket = this.buckets.get(text.slice(at, at + PIECE));
      if (bucket) for (const scenario of bucket) into.add(scenario);
    }
  }
}
