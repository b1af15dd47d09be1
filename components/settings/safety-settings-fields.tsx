"use client";

import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import { Field, inputClassName } from "@/components/ui/field";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import { SUPPORTED_HARM_CATEGORIES, type HarmBlockThreshold } from "@/lib/gemini/types";
import {
  categoryLabel,
  SELECTABLE_THRESHOLDS,
  THRESHOLD_LABELS,
  withSafetyThreshold,
} from "@/lib/studio/settings-model";

/** One threshold per harm category the models rate; "default" leaves the category out of the request. */
export function SafetySettingsFields({
  settings,
  traits,
  onChange,
}: {
  settings: ConversationSettings;
  traits: ModelTraits | undefined;
  onChange(settings: ConversationSettings): void;
}) {
  const fallback = traits?.defaultSafetyThreshold ?? "BLOCK_MEDIUM_AND_ABOVE";
  return (
    <div className="grid gap-2">
      {SUPPORTED_HARM_CATEGORIES.map((category) => {
        const current =
          settings.safetySettings.find((setting) => setting.category === category)?.threshold ?? "";
        return (
          <Field key={category} label={categoryLabel(category)}>
            {(props) => (
              <select
                {...props}
                value={current}
                onChange={(event) =>
                  onChange(
                    withSafetyThreshold(
                      settings,
                      category,
                      (event.target.value || null) as HarmBlockThreshold | null,
                    ),
                  )
                }
                className={inputClassName}
              >
                <option value="">Default ({THRESHOLD_LABELS[fallback]})</option>
                {SELECTABLE_THRESHOLDS.map((threshold) => (
                  <option key={threshold} value={threshold}>
                    {THRESHOLD_LABELS[threshold]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        );
      })}
    </div>
  );
}
