"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, inputClassName } from "@/components/ui/field";
import type { ConversationSettingsState } from "@/lib/hooks/use-conversation-settings";
import { useDeletePreset, usePresets, useSavePreset } from "@/lib/hooks/use-presets";
import { carriedSettings } from "@/lib/studio/settings-presets";
import { Checkbox, Section } from "./settings-fields";

/**
 * Presets: apply one to this chat, save the settings in force under a name, choose the one new
 * chats start from, delete one. Without a default preset a new chat starts from the settings
 * used last.
 */
export function PresetFields({ state }: { state: ConversationSettingsState }) {
  const presets = usePresets();
  const save = useSavePreset();
  const remove = useDeletePreset();
  const [chosen, setChosen] = useState("");
  const [name, setName] = useState("");
  const [startsNewChats, setStartsNewChats] = useState(false);
  const list = presets.data?.presets ?? [];
  const selected = list.find((preset) => preset.name === chosen);

  function apply(presetName: string) {
    setChosen(presetName);
    const preset = list.find((item) => item.name === presetName);
    if (!preset) return;
    // The chat keeps its own cache: a preset carries no conversation's cache.
    const { cachedContent } = state.settings;
    state.update({
      ...carriedSettings(preset.settings),
      ...(cachedContent ? { cachedContent } : {}),
    });
  }

  function submit() {
    const trimmed = name.trim();
    if (!trimmed) return;
    save.mutate(
      { name: trimmed, settings: carriedSettings(state.settings), isDefault: startsNewChats },
      {
        onSuccess: () => {
          setChosen(trimmed);
          setName("");
        },
      },
    );
  }

  const problem = save.error ?? remove.error ?? presets.error;
  return (
    <Section title="Presets">
      <Field
        label="Preset"
        hint={
          list.some((preset) => preset.isDefault)
            ? `New chats start from “${list.find((preset) => preset.isDefault)!.name}”.`
            : "New chats start from the settings you used last."
        }
      >
        {(props) => (
          <select
            {...props}
            value={chosen}
            onChange={(event) => apply(event.target.value)}
            className={inputClassName}
          >
            <option value="">{list.length ? "Apply a preset…" : "No presets saved yet"}</option>
            {list.map((preset) => (
              <option key={preset.name} value={preset.name}>
                {preset.name}
                {preset.isDefault ? " (new chats)" : ""}
              </option>
            ))}
          </select>
        )}
      </Field>
      {selected && (
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            disabled={selected.isDefault || save.isPending}
            onClick={() => save.mutate({ ...selected, isDefault: true })}
          >
            Use for new chats
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={remove.isPending}
            onClick={() => remove.mutate(selected.name, { onSuccess: () => setChosen("") })}
          >
            Delete preset
          </Button>
        </div>
      )}
      {/* Inside the settings form: a group, not a form of its own (forms do not nest). */}
      <div className="flex flex-col gap-2" role="group" aria-label="Save as preset">
        <Field label="Save these settings as">
          {(props) => (
            <input
              {...props}
              value={name}
              maxLength={80}
              placeholder="Preset name"
              onChange={(event) => setName(event.target.value)}
              onKeyDown={(event) => {
                if (event.key !== "Enter") return;
                event.preventDefault();
                submit();
              }}
              className={inputClassName}
            />
          )}
        </Field>
        <Checkbox
          label="Use it for new chats"
          checked={startsNewChats}
          onChange={setStartsNewChats}
        />
        <Button size="sm" disabled={!name.trim() || save.isPending} onClick={submit}>
          Save preset
        </Button>
      </div>
      {problem && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400">
          {problem.message}
        </p>
      )}
    </Section>
  );
}
