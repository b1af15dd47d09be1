"use client";

import {
  categoryLabel,
  THRESHOLD_LABELS,
  thresholdAllowing,
  thresholdInForce,
  type ThresholdChange,
} from "@/lib/studio/settings-model";
import { Button } from "@/components/ui/button";
import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type { SafetyRating } from "@/lib/gemini/types";
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
  /** Loosen each blocking category's threshold to let its probability through, and ask again. */
  onAdjust?: (changes: ThresholdChange[]) => void;
  disabled?: boolean;
}

/**
 * The ratings that blocked: those marked `blocked`, else (a rating without the mark) the
 * strongest one, which is the best guess of what the threshold caught.
 */
function blockingRatings(ratings: readonly SafetyRating[] | undefined): SafetyRating[] {
  const marked = (ratings ?? []).filter((rating) => rating.blocked);
  if (marked.length) return marked;
  const strongest = strongestRating(ratings);
  return strongest ? [strongest] : [];
}

/**
 * A blocked prompt or candidate, said plainly: every category that blocked, how probable, the
 * threshold in force for it, and one click to loosen them all and retry.
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
  const blocking = blockingRatings(ratings).map((rating) => ({
    rating,
    inForce: thresholdInForce(settings, rating.category, traits),
    allowing: thresholdAllowing(rating.probability),
  }));
  const changes = blocking.map(({ rating, allowing }) => ({
    category: rating.category,
    threshold: allowing,
  }));
  return (
    <section
      aria-label={`Blocked ${subject}`}
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-950 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100"
    >
      <p className="font-semibold">
        {subject === "prompt" ? "The prompt was blocked" : "The answer was blocked"} ({reason})
      </p>
      {blocking.length ? (
        <ul className="mt-1 flex flex-col gap-0.5" aria-label="Blocking categories">
          {blocking.map(({ rating, inForce }) => (
            <li key={rating.category}>
              Category <strong>{categoryLabel(rating.category)}</strong> was rated{" "}
              <strong>{rating.probability}</strong>; the threshold in force is{" "}
              <strong>{THRESHOLD_LABELS[inForce] ?? inForce}</strong> ({inForce}).
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1">No safety rating came with it, so there is no threshold to adjust.</p>
      )}
      {onAdjust && changes.length > 0 && (
        <Button
          variant="primary"
          size="sm"
          className="mt-2"
          disabled={disabled}
          onClick={() => onAdjust(changes)}
        >
          {changes.length === 1
            ? `Set ${categoryLabel(changes[0]!.category)} to “${THRESHOLD_LABELS[changes[0]!.threshold]}” and retry`
            : `Loosen ${changes.map((change) => `${categoryLabel(change.category)} to “${THRESHOLD_LABELS[change.threshold]}”`).join(", ")} and retry`}
        </Button>
      )}
    </section>
  );
}
