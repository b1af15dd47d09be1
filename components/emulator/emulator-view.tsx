"use client";

import { useState } from "react";
import { useScenarios, type ScenarioView } from "@/lib/hooks/use-emulator";
import { RequestLogView } from "./request-log";
import { ScenarioEditor } from "./scenario-editor";
import { ScenarioList } from "./scenario-list";

/** The emulator page: this session's scenarios (list, add, edit as JSON, delete) and its live request log. */
export function EmulatorView({ mode }: { mode: "local" | "upstream" }) {
  const scenarios = useScenarios();
  const [editing, setEditing] = useState<ScenarioView | null>(null);
  if (mode !== "local") {
    return (
      <div className="mx-auto flex max-w-4xl flex-col gap-3 p-4">
        <h1 className="text-xl font-semibold">Emulator</h1>
        <p className="text-sm">
          The emulator belongs to the local engine. This studio forwards requests to the service,
          which has no scenarios or request log.
        </p>
      </div>
    );
  }
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 p-4">
      <div>
        <h1 className="text-xl font-semibold">Emulator</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Scenarios script the local engine&apos;s answers to this session&apos;s requests (a key
          has its own): the first that matches answers, in the order below.
        </p>
      </div>
      <section aria-labelledby="scenarios-heading" className="flex flex-col gap-3">
        <h2 id="scenarios-heading" className="text-lg font-semibold">
          Scenarios
        </h2>
        {scenarios.error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {scenarios.error.message}
          </p>
        )}
        <ScenarioList scenarios={scenarios.data ?? []} onEdit={setEditing} />
        <ScenarioEditor
          key={editing?.id ?? "new"}
          editing={editing}
          onDone={() => setEditing(null)}
        />
      </section>
      <RequestLogView />
    </div>
  );
}
