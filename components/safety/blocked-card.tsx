"use client";

import {
  categoryLabel,
  THRESHOLD_LABELS,
  thresholdAllowing,
  thresholdInForce,
} from "@/lib/studio/settings-model";
import { Button } from "@/components/ui/button";
import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type { HarmBlockThreshold, SafetyRating } from "@/lib/gemini/types";
import { strongestRating } from "./safety-ratings";

export interface BlockedCardProps {
  /** What was blocked. */
  subject: "prompt" | "answer";
  /** blockReason of the prompt or finishReason of the candidate. */
  reason: string;
  ratings: readonly SafetyRating[] | undefined;
  /** Settings the request was sent with (the thresholds in force). */
  settings: ConversationSettings | undefined;
  traits: ModelTraits | undefined;
  /** Loosen the category's threshold to let this probability through, and ask again. */
  onAdjust?: (category: string, threshold: HarmBlockThreshold) => void;
  disabled?: boolean;
}

/**
 * A blocked prompt or candidate, said plainly: which category, how probable, the threshold
 * that blocked it, and one click to loosen that threshold and retry.
 */
export function BlockedCard({
  subject,
  reason,
  ratings,
  settings,
  traits,
  onAdjust,
  disabled,
}: BlockedCardProps) {
  const rating = strongestRating(ratings);
  const inForce = rating ? thresholdInForce(settings, rating.category, traits) : undefined;
  const allowing = rating ? thresholdAllowing(rating.probability) : undefined;
  return (
    <section
      aria-label={`Blocked ${subject}`}
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-950 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100"
    >
      <p className="font-semibold">
        {subject === "prompt" ? "The prompt was blocked" : "The answer was blocked"} ({reason})
      </p>
      {rating ? (
        <p className="mt-1">
          Category <strong>{categoryLabel(rating.category)}</strong> was rated{" "}
          <strong>{rating.probability}</strong>; the threshold in force is{" "}
          <strong>{THRESHOLD_LABELS[inForce!] ?? inForce}</strong> ({inForce}).
        </p>
      ) : (
        <p className="mt-1">No safety rating came with it, so there is no threshold to adjust.</p>
      )}
      {rating && onAdjust && allowing && (
        <Button
          variant="primary"
          size="sm"
          className="mt-2"
          disabled={disabled}
          onClick={() => onAdjust(rating.category, allowing)}
        >
          Set {categoryLabel(rating.category)} to “{THRESHOLD_LABELS[allowing]}” and retry
        </Button>
      )}
    </section>
  );
}
