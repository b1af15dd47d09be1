"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, inputClassName } from "@/components/ui/field";
import { useSaveScenario, type ScenarioView } from "@/lib/hooks/use-emulator";

const EXAMPLE = {
  name: "Paris is sunny",
  match: { operation: "generateContent", textContains: "weather in Paris" },
  respond: { text: "Sunny, 21 °C." },
};

/** What an edited scenario sends back: its own fields, not the counts the server adds. */
function editable(scenario: ScenarioView): unknown {
  return {
    ...(scenario.name !== undefined ? { name: scenario.name } : {}),
    match: scenario.match,
    respond: scenario.respond,
    ...(scenario.times !== undefined ? { times: scenario.times } : {}),
  };
}

/**
 * A scenario as JSON: a new one (from an example) or one being edited. The text is checked as
 * JSON while typed; the server checks the scenario itself and its 400 (naming the field) is
 * shown as is. Nothing is registered until it passes both.
 */
export function ScenarioEditor({
  editing,
  onDone,
}: {
  editing: ScenarioView | null;
  onDone(): void;
}) {
  const [text, setText] = useState(() =>
    JSON.stringify(editing ? editable(editing) : EXAMPLE, null, 2),
  );
  const save = useSaveScenario();
  let parseError: string | null = null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    parseError = `Not JSON yet: ${(error as Error).message}`;
  }
  const serverErrors = save.error ? save.error.message.split("\n") : [];
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (parseError) return;
        save.mutate(
          { ...(editing ? { id: editing.id } : {}), scenario: parsed },
          { onSuccess: onDone },
        );
      }}
    >
      <Field
        label={editing ? `Scenario ${editing.id} as JSON` : "New scenario as JSON"}
        hint="{ match, respond, times? }: see the README, “Testing your client against Genstudio”."
        errors={parseError ? [parseError] : serverErrors}
      >
        {(props) => (
          <textarea
            {...props}
            rows={10}
            spellCheck={false}
            className={`${inputClassName} font-mono text-xs`}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              save.reset();
            }}
          />
        )}
      </Field>
      <div className="flex gap-2">
        <Button type="submit" variant="primary" size="sm" disabled={!!parseError || save.isPending}>
          {editing ? "Save scenario" : "Add scenario"}
        </Button>
        {editing && (
          <Button size="sm" onClick={onDone}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
