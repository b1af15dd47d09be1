"use client";

import { memo, useId, useState } from "react";
import type { Candidate, LogprobsCandidate } from "@/lib/gemini/types";

/** Tokens shown in the heat map (each is a tab stop; a longer answer shows its beginning). */
const SHOWN_TOKENS = 400;

/** Colour bands by probability: the legend and the tokens use the same ones. */
const BANDS: { min: number; label: string; className: string }[] = [
  { min: 0.9, label: "≥ 90 %", className: "bg-green-100 dark:bg-green-900/60" },
  { min: 0.5, label: "50–90 %", className: "bg-yellow-100 dark:bg-yellow-900/60" },
  { min: 0.2, label: "20–50 %", className: "bg-orange-200 dark:bg-orange-900/60" },
  { min: 0, label: "< 20 %", className: "bg-red-200 dark:bg-red-900/60" },
];

function bandOf(probability: number) {
  return BANDS.find((band) => probability >= band.min) ?? BANDS[BANDS.length - 1]!;
}

function percent(logProbability: number | undefined): string {
  return logProbability === undefined ? "–" : `${(Math.exp(logProbability) * 100).toFixed(1)} %`;
}

function Token({
  step,
  alternatives,
}: {
  step: LogprobsCandidate;
  alternatives: LogprobsCandidate[];
}) {
  const tooltipId = useId();
  const probability = step.logProbability === undefined ? 0 : Math.exp(step.logProbability);
  const description = `${JSON.stringify(step.token ?? "")} ${percent(step.logProbability)}${
    alternatives.length
      ? `; alternatives: ${alternatives.map((option) => `${JSON.stringify(option.token ?? "")} ${percent(option.logProbability)}`).join(", ")}`
      : ""
  }`;
  return (
    <span className="group relative">
      <span
        tabIndex={0}
        aria-describedby={tooltipId}
        data-token-probability={probability.toFixed(4)}
        className={`${bandOf(probability).className} rounded-sm whitespace-pre-wrap focus-visible:outline-2 focus-visible:outline-blue-600`}
      >
        {step.token ?? ""}
      </span>
      <span
        role="tooltip"
        id={tooltipId}
        className="invisible absolute top-full left-0 z-20 mt-1 w-max max-w-xs rounded-md bg-zinc-900 px-2 py-1 font-mono text-xs whitespace-pre-wrap text-white group-focus-within:visible group-hover:visible dark:bg-zinc-100 dark:text-zinc-900"
      >
        {description}
      </span>
    </span>
  );
}

/**
 * The answer as its tokens coloured by the probability the model gave each (a toggle), with
 * the top alternatives and their probabilities on hover and on keyboard focus.
 */
export const LogprobsHeatMap = memo(function LogprobsHeatMap({
  candidate,
}: {
  candidate: Candidate | undefined;
}) {
  const [open, setOpen] = useState(false);
  const chosen = candidate?.logprobsResult?.chosenCandidates ?? [];
  const top = candidate?.logprobsResult?.topCandidates ?? [];
  if (chosen.length === 0) return null;
  return (
    <div className="w-full text-xs" data-logprobs-heat-map="">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="text-zinc-600 underline underline-offset-2 dark:text-zinc-400"
      >
        Token heat map
      </button>
      {open && (
        <div className="mt-1 rounded-md border border-zinc-200 p-2 dark:border-zinc-800">
          <p
            className="mb-1 flex flex-wrap gap-2 text-zinc-600 dark:text-zinc-400"
            aria-label="Colour legend"
          >
            {BANDS.map((band) => (
              <span
                key={band.label}
                className={`${band.className} rounded-sm px-1 text-zinc-900 dark:text-zinc-100`}
              >
                {band.label}
              </span>
            ))}
            {candidate?.avgLogprobs !== undefined && (
              <span>average log probability {candidate.avgLogprobs.toFixed(3)}</span>
            )}
          </p>
          <p className="font-mono text-sm leading-7" aria-label="Answer tokens by probability">
            {chosen.slice(0, SHOWN_TOKENS).map((step, index) => (
              <Token key={index} step={step} alternatives={top[index]?.candidates ?? []} />
            ))}
          </p>
          {chosen.length > SHOWN_TOKENS && (
            <p className="text-zinc-600 dark:text-zinc-400">
              First {SHOWN_TOKENS} of {chosen.length} tokens.
            </p>
          )}
        </div>
      )}
    </div>
  );
});
