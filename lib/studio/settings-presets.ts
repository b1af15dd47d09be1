/**
 * Settings presets: named chat settings a person saves and reuses; the one marked default
 * starts their new chats, else the settings they used last in this browser. Bodies of
 * `/api/presets` beside their shapes. Safe in the browser.
 */
import { z } from "zod";
import { conversationSettingsSchema, type ConversationSettings } from "./conversation-schema";

/** Presets one owner keeps at most. */
export const MAX_PRESETS = 50;

export interface SettingsPreset {
  name: string;
  settings: ConversationSettings;
  /** Starts the owner's new chats. */
  isDefault: boolean;
  updatedAt: string;
}

/** `GET /api/presets`. */
export interface PresetList {
  presets: SettingsPreset[];
}

export const presetNameSchema = z
  .string()
  .trim()
  .min(1, "a preset needs a name")
  .max(80, "a preset's name is at most 80 characters");

/** `PUT /api/presets/{name}`. */
export const savePresetSchema = z.strictObject({
  settings: conversationSettingsSchema,
  isDefault: z.boolean().default(false),
});

/** Settings without what belongs to one conversation (its cache). */
export function carriedSettings(settings: ConversationSettings): ConversationSettings {
  const { cachedContent: _cache, ...carried } = settings;
  return carried;
}

/**
 * What a new chat starts from: the person's default preset, else the settings they used last
 * in this browser; null when there is neither (the studio's defaults).
 */
export function startingSettings(
  list: PresetList | undefined,
  usedLast: ConversationSettings | null,
): ConversationSettings | null {
  const preset = list?.presets.find((item) => item.isDefault);
  if (preset) return carriedSettings(preset.settings);
  return usedLast ? carriedSettings(usedLast) : null;
}
