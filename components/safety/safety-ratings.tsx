"use client";

import { memo } from "react";
import { categoryLabel } from "@/lib/studio/settings-model";
import type { SafetyRating } from "@/lib/gemini/types";

const ORDER = ["HARM_PROBABILITY_UNSPECIFIED", "NEGLIGIBLE", "LOW", "MEDIUM", "HIGH"];

function probabilityRank(probability: string): number {
  return Math.max(0, ORDER.indexOf(probability));
}

const PROBABILITY_STYLE: Record<string, string> = {
  NEGLIGIBLE: "text-zinc-600 dark:text-zinc-400",
  LOW: "text-zinc-800 dark:text-zinc-200",
  MEDIUM: "text-amber-800 dark:text-amber-300",
  HIGH: "text-red-700 dark:text-red-400",
};

/** The rating that matters most: a blocked one, else the most probable. */
export function strongestRating(
  ratings: readonly SafetyRating[] | undefined,
): SafetyRating | undefined {
  if (!ratings?.length) return undefined;
  return [...ratings].sort(
    (left, right) =>
      Number(Boolean(right.blocked)) - Number(Boolean(left.blocked)) ||
      probabilityRank(right.probability) - probabilityRank(left.probability),
  )[0];
}

/**
 * Safety ratings, compact (the strongest one) with the full table on demand. `subject` says
 * whose ratings they are ("Prompt", "Candidate 2").
 */
export const SafetyRatings = memo(function SafetyRatings({
  ratings,
  subject,
}: {
  ratings: readonly SafetyRating[] | undefined;
  subject: string;
}) {
  if (!ratings?.length) return null;
  const strongest = strongestRating(ratings)!;
  const summary =
    probabilityRank(strongest.probability) <= 1 && !strongest.blocked
      ? "all negligible"
      : `${categoryLabel(strongest.category)} ${strongest.probability}${strongest.blocked ? " (blocked)" : ""}`;
  return (
    <details className="text-xs text-zinc-600 dark:text-zinc-400" data-safety-ratings={subject}>
      <summary className="cursor-pointer select-none">
        {subject} safety:{" "}
        <span className={PROBABILITY_STYLE[strongest.probability] ?? ""}>{summary}</span>
      </summary>
      <table className="mt-1 border-collapse">
        <caption className="sr-only">{subject} safety ratings</caption>
        <thead>
          <tr>
            <th scope="col" className="pr-3 text-left font-medium">
              Category
            </th>
            <th scope="col" className="pr-3 text-left font-medium">
              Probability
            </th>
            <th scope="col" className="text-left font-medium">
              Blocked
            </th>
          </tr>
        </thead>
        <tbody>
          {ratings.map((rating) => (
            <tr key={rating.category}>
              <td className="pr-3">{categoryLabel(rating.category)}</td>
              <td className={`pr-3 ${PROBABILITY_STYLE[rating.probability] ?? ""}`}>
                {rating.probability}
              </td>
              <td>{rating.blocked ? "yes" : "no"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
});
