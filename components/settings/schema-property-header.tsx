"use client";

import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { inputClassName } from "@/components/ui/field";
import type { Schema } from "@/lib/gemini/types";
import { renameProblem } from "@/lib/studio/schema-form";
import { LabelledControl } from "./labelled-control";

/** What a property's node offers besides its schema: its name, required, order, removal. */
export interface PropertyControls {
  name: string;
  siblings: Schema;
  required: boolean;
  first: boolean;
  last: boolean;
  onRename(to: string): void;
  onRequired(required: boolean): void;
  onMove(offset: -1 | 1): void;
  onRemove(): void;
}

/**
 * A property's name (renamed when it is left or Enter is pressed), required, order, remove.
 * Properties are keyed by name, so a rename mounts a new header with the new name.
 */
export function PropertyHeader({ controls, label }: { controls: PropertyControls; label: string }) {
  const [draft, setDraft] = useState(controls.name);
  const problemId = useId();
  const problem = renameProblem(controls.siblings, controls.name, draft);
  const commit = () => {
    if (!problem && draft !== controls.name) controls.onRename(draft);
  };
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap items-end gap-2">
        <LabelledControl label="Name" of={label} className="min-w-32 flex-1">
          {(controlId) => (
            <input
              id={controlId}
              type="text"
              value={draft}
              data-property-name={controls.name}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? problemId : undefined}
              onChange={(event) => setDraft(event.target.value)}
              onBlur={commit}
              onKeyDown={(event) => {
                if (event.key === "Enter") {
                  event.preventDefault();
                  commit();
                }
              }}
              className={`${inputClassName} font-mono`}
            />
          )}
        </LabelledControl>
        <label className="flex items-center gap-1 pb-1 text-sm">
          <input
            type="checkbox"
            checked={controls.required}
            onChange={(event) => controls.onRequired(event.target.checked)}
          />
          Required<span className="sr-only"> ({controls.name})</span>
        </label>
      </div>
      {problem && (
        <p id={problemId} className="text-xs text-red-700 dark:text-red-400" data-field-error="">
          {problem}
        </p>
      )}
      <PropertyOrderButtons controls={controls} />
    </div>
  );
}

/** Up, down and remove; after a move the focus stays on the button (or the other, at an end). */
function PropertyOrderButtons({ controls }: { controls: PropertyControls }) {
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  const move = (offset: -1 | 1) => {
    controls.onMove(offset);
    requestAnimationFrame(() => {
      const button = offset < 0 ? up.current : down.current;
      (button?.disabled ? (offset < 0 ? down : up).current : button)?.focus();
    });
  };
  return (
    <div className="flex gap-1">
      <Button
        ref={up}
        size="sm"
        variant="ghost"
        disabled={controls.first}
        aria-label={`Move ${controls.name} up`}
        onClick={() => move(-1)}
      >
        ↑ Up
      </Button>
      <Button
        ref={down}
        size="sm"
        variant="ghost"
        disabled={controls.last}
        aria-label={`Move ${controls.name} down`}
        onClick={() => move(1)}
      >
        ↓ Down
      </Button>
      <Button
        size="sm"
        variant="ghost"
        aria-label={`Remove property ${controls.name}`}
        onClick={controls.onRemove}
      >
        Remove
      </Button>
    </div>
  );
}
