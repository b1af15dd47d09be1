"use client";

import { Button } from "@/components/ui/button";
import { useDeleteScenario, type ScenarioView } from "@/lib/hooks/use-emulator";

/** What a scenario answers, in a few words. */
function answerSummary(respond: unknown): string {
  const answers = Array.isArray(respond) ? respond : [respond];
  const kinds = answers.map((answer) => {
    const keys = Object.keys((answer ?? {}) as object).filter(
      (key) => !["delayMs", "chunkDelayMs", "finishReason", "bodyText"].includes(key),
    );
    return keys.join("+") || "delay";
  });
  return answers.length > 1 ? `sequence: ${kinds.join(" → ")}` : kinds[0]!;
}

function matchSummary(match: Record<string, unknown>): string {
  const parts = Object.entries(match).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return parts.join(", ") || "every request";
}

/** The caller's scenarios in the order they are tried, then the instance's (read-only). */
export function ScenarioList({
  scenarios,
  onEdit,
}: {
  scenarios: ScenarioView[];
  onEdit(scenario: ScenarioView): void;
}) {
  const remove = useDeleteScenario();
  if (scenarios.length === 0)
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        No scenarios: the engine answers every request.
      </p>
    );
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">Scenarios, in the order they are tried</caption>
      <thead className="text-xs text-zinc-600 dark:text-zinc-400">
        <tr>
          <th scope="col" className="py-1 pr-2">
            Scenario
          </th>
          <th scope="col" className="py-1 pr-2">
            Matches
          </th>
          <th scope="col" className="py-1 pr-2">
            Answers
          </th>
          <th scope="col" className="py-1 pr-2">
            Calls
          </th>
          <th scope="col" className="py-1">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {scenarios.map((scenario) => (
          <tr key={scenario.id} className="border-t border-zinc-200 align-top dark:border-zinc-800">
            <td className="py-1.5 pr-2">
              <div className="font-medium">{scenario.name ?? scenario.id}</div>
              <div className="font-mono text-xs text-zinc-600 dark:text-zinc-400">
                {scenario.id}
                {scenario.source === "instance" ? " · GENSTUDIO_SCENARIOS" : ""}
              </div>
            </td>
            <td className="py-1.5 pr-2 font-mono text-xs break-all">
              {matchSummary(scenario.match)}
            </td>
            <td className="py-1.5 pr-2 font-mono text-xs">{answerSummary(scenario.respond)}</td>
            <td className="py-1.5 pr-2 text-xs">
              {scenario.calls}
              {scenario.remaining !== undefined ? ` (${scenario.remaining} left)` : ""}
            </td>
            <td className="py-1.5 text-right whitespace-nowrap">
              {scenario.source === "caller" && (
                <>
                  <Button size="sm" variant="ghost" onClick={() => onEdit(scenario)}>
                    Edit<span className="sr-only"> {scenario.name ?? scenario.id}</span>
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => remove.mutate(scenario.id)}>
                    Delete<span className="sr-only"> {scenario.name ?? scenario.id}</span>
                  </Button>
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
