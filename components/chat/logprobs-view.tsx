"use client";

import { memo } from "react";
import type { Candidate } from "@/lib/gemini/types";

const SHOWN_STEPS = 200;

function formatLogprob(value: number | undefined): string {
  return value === undefined ? "–" : value.toFixed(3);
}

/** avgLogprobs and, on demand, each decoding step's chosen token and top alternatives. */
export const LogprobsView = memo(function LogprobsView({
  candidate,
}: {
  candidate: Candidate | undefined;
}) {
  const chosen = candidate?.logprobsResult?.chosenCandidates ?? [];
  const top = candidate?.logprobsResult?.topCandidates ?? [];
  if (candidate?.avgLogprobs === undefined && chosen.length === 0) return null;
  return (
    <details className="text-xs text-zinc-600 dark:text-zinc-400" data-logprobs="">
      <summary className="cursor-pointer select-none">
        Logprobs: average {formatLogprob(candidate?.avgLogprobs)}
      </summary>
      {chosen.length > 0 && (
        <div className="mt-1 max-h-64 overflow-auto" tabIndex={0}>
          <table className="border-collapse font-mono">
            <caption className="sr-only">
              Chosen token and top alternatives per decoding step
            </caption>
            <thead>
              <tr>
                <th scope="col" className="pr-3 text-left font-medium">
                  Step
                </th>
                <th scope="col" className="pr-3 text-left font-medium">
                  Chosen
                </th>
                <th scope="col" className="pr-3 text-left font-medium">
                  Logprob
                </th>
                <th scope="col" className="text-left font-medium">
                  Top alternatives
                </th>
              </tr>
            </thead>
            <tbody>
              {chosen.slice(0, SHOWN_STEPS).map((step, index) => (
                <tr key={index}>
                  <td className="pr-3 tabular-nums">{index + 1}</td>
                  <td className="pr-3 whitespace-pre">{JSON.stringify(step.token ?? "")}</td>
                  <td className="pr-3 tabular-nums">{formatLogprob(step.logProbability)}</td>
                  <td className="whitespace-pre">
                    {(top[index]?.candidates ?? [])
                      .map(
                        (option) =>
                          `${JSON.stringify(option.token ?? "")} ${formatLogprob(option.logProbability)}`,
                      )
                      .join("  ")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {chosen.length > SHOWN_STEPS && (
            <p>
              First {SHOWN_STEPS} of {chosen.length} steps.
            </p>
          )}
        </div>
      )}
    </details>
  );
});
