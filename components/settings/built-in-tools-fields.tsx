"use client";

import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import type { ModelTraits } from "@/lib/gemini/model-traits";

import { BUILT_IN_TOOLS, hasBuiltInTool, withBuiltInTool } from "@/lib/studio/settings-model";

/**
 * Switches for the service's built-in tools, offered only for those the model supports. In
 * gateway mode they go to the service; the local engine emulates them (lib/engine/tools).
 */
export function BuiltInToolsFields({
  settings,
  traits,
  onChange,
}: {
  settings: ConversationSettings;
  traits: ModelTraits | undefined;
  onChange(settings: ConversationSettings): void;
}) {
  const supported = traits?.builtInTools ?? [];
  const offered = BUILT_IN_TOOLS.filter(
    (tool) => supported.includes(tool.key) || hasBuiltInTool(settings, tool.key),
  );
  if (offered.length === 0)
    return (
      <p className="text-xs text-zinc-600 dark:text-zinc-400" data-built-in-tools="none">
        This model offers no built-in tools.
      </p>
    );
  return (
    <fieldset className="flex flex-col gap-1" data-built-in-tools="">
      <legend className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
        Built-in tools
      </legend>
      {offered.map((tool) => {
        const checked = hasBuiltInTool(settings, tool.key);
        const unsupported = !supported.includes(tool.key);
        return (
          <label key={tool.key} className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-1"
              checked={checked}
              aria-invalid={unsupported ? true : undefined}
              onChange={(event) =>
                onChange(withBuiltInTool(settings, tool.key, event.target.checked))
              }
            />
            <span>
              {tool.label}
              <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                {unsupported ? "This model does not offer it: turn it off." : tool.hint}
              </span>
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}
