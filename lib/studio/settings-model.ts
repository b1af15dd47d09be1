/**
 * Pure helpers of the chat settings: defaults, safety thresholds in force, the threshold that
 * lets a rating through, and the inline validation (the server's own rules, through
 * lib/gemini/validate, keyed by the form field they belong to).
 */
import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import type { FieldViolation } from "@/lib/gemini/api-error";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type {
  GenerationConfig,
  HarmBlockThreshold,
  HarmCategory,
  HarmProbability,
} from "@/lib/gemini/types";
import { SUPPORTED_HARM_CATEGORIES } from "@/lib/gemini/types";
import { validateGenerationConfigFields, validateToolFields } from "@/lib/gemini/validate";

export const DEFAULT_MODEL = "models/gemini-2.5-flash";

export function defaultSettings(model = DEFAULT_MODEL): ConversationSettings {
  return { model, systemInstruction: "", generationConfig: {}, safetySettings: [] };
}

/** Settings with generationConfig fields set (or removed, for `undefined`). */
export function withGenerationConfig(
  settings: ConversationSettings,
  changes: Partial<Record<keyof GenerationConfig, unknown>>,
): ConversationSettings {
  const generationConfig: Record<string, unknown> = { ...settings.generationConfig };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete generationConfig[key];
    else generationConfig[key] = value;
  }
  return { ...settings, generationConfig: generationConfig as GenerationConfig };
}

/**
 * A nested config object (thinkingConfig, speechConfig) with one field set, or removed when
 * `value` is undefined; undefined when nothing is left, so the field leaves the request.
 */
export function withNestedField<Nested extends object, Key extends keyof Nested>(
  nested: Nested | undefined,
  key: Key,
  value: Nested[Key] | undefined,
): Nested | undefined {
  const next = { ...nested } as Nested;
  if (value === undefined) delete next[key];
  else next[key] = value;
  return Object.keys(next).length ? next : undefined;
}

export type BuiltInToolKey = NonNullable<ModelTraits["builtInTools"]>[number];

export const BUILT_IN_TOOLS: { key: BuiltInToolKey; label: string; hint: string }[] = [
  {
    key: "googleSearch",
    label: "Google Search grounding",
    hint: "Answers cite their sources (the local engine searches its own document set).",
  },
  {
    key: "urlContext",
    label: "URL context",
    hint: "Reads the URLs in the prompt (locally: this studio's file URIs).",
  },
  {
    key: "codeExecution",
    label: "Code execution",
    hint: "Writes and runs Python for calculations (locally: sandboxed, time and memory limited).",
  },
];

export function hasBuiltInTool(settings: ConversationSettings, key: BuiltInToolKey): boolean {
  return (settings.tools ?? []).some((tool) => tool[key] !== undefined);
}

/** Settings with a built-in tool turned on (its own Tool entry) or off. */
export function withBuiltInTool(
  settings: ConversationSettings,
  key: BuiltInToolKey,
  on: boolean,
): ConversationSettings {
  const others = (settings.tools ?? []).flatMap((tool) => {
    if (tool[key] === undefined) return [tool];
    const { [key]: _removed, ...rest } = tool;
    return Object.keys(rest).length ? [rest] : [];
  });
  const tools = on ? [...others, { [key]: {} }] : others;
  if (tools.length === (settings.tools?.length ?? 0) && !on && !hasBuiltInTool(settings, key))
    return settings;
  const { tools: _tools, ...rest } = settings;
  return tools.length ? { ...rest, tools } : rest;
}

export const HARM_CATEGORY_LABELS: Record<string, string> = {
  HARM_CATEGORY_HARASSMENT: "Harassment",
  HARM_CATEGORY_HATE_SPEECH: "Hate speech",
  HARM_CATEGORY_SEXUALLY_EXPLICIT: "Sexually explicit",
  HARM_CATEGORY_DANGEROUS_CONTENT: "Dangerous content",
  HARM_CATEGORY_CIVIC_INTEGRITY: "Civic integrity",
};

export function categoryLabel(category: string): string {
  return (
    HARM_CATEGORY_LABELS[category] ??
    category
      .replace(/^HARM_CATEGORY_/, "")
      .toLowerCase()
      .replace(/_/g, " ")
  );
}

export const THRESHOLD_LABELS: Record<string, string> = {
  BLOCK_LOW_AND_ABOVE: "Block low and above",
  BLOCK_MEDIUM_AND_ABOVE: "Block medium and above",
  BLOCK_ONLY_HIGH: "Block only high",
  BLOCK_NONE: "Block none",
  OFF: "Off",
};

export const SELECTABLE_THRESHOLDS: HarmBlockThreshold[] = [
  "BLOCK_LOW_AND_ABOVE",
  "BLOCK_MEDIUM_AND_ABOVE",
  "BLOCK_ONLY_HIGH",
  "BLOCK_NONE",
  "OFF",
];

/** The threshold the request carries for a category, or the model's default when it sets none. */
export function thresholdInForce(
  settings: ConversationSettings | undefined,
  category: HarmCategory | string,
  traits?: ModelTraits,
): HarmBlockThreshold {
  const set = settings?.safetySettings.find((setting) => setting.category === category)?.threshold;
  if (set && set !== "HARM_BLOCK_THRESHOLD_UNSPECIFIED") return set;
  return traits?.defaultSafetyThreshold ?? "BLOCK_MEDIUM_AND_ABOVE";
}

/** The strictest threshold that still lets a rating of this probability through. */
export function thresholdAllowing(probability: HarmProbability | string): HarmBlockThreshold {
  switch (probability) {
    case "NEGLIGIBLE":
      return "BLOCK_LOW_AND_ABOVE";
    case "LOW":
      return "BLOCK_MEDIUM_AND_ABOVE";
    case "MEDIUM":
      return "BLOCK_ONLY_HIGH";
    default:
      return "BLOCK_NONE";
  }
}

/** One category's threshold to set. */
export interface ThresholdChange {
  category: string;
  threshold: HarmBlockThreshold;
}

/** Settings with several categories' thresholds replaced. */
export function withSafetyThresholds(
  settings: ConversationSettings,
  changes: readonly ThresholdChange[],
): ConversationSettings {
  return changes.reduce(
    (next, change) => withSafetyThreshold(next, change.category, change.threshold),
    settings,
  );
}

/** Settings with one category's threshold replaced (unset when `threshold` is null). */
export function withSafetyThreshold(
  settings: ConversationSettings,
  category: string,
  threshold: HarmBlockThreshold | null,
): ConversationSettings {
  const others = settings.safetySettings.filter((setting) => setting.category !== category);
  const safetySettings =
    threshold === null ? others : [...others, { category: category as HarmCategory, threshold }];
  safetySettings.sort(
    (left, right) =>
      SUPPORTED_HARM_CATEGORIES.indexOf(
        left.category as (typeof SUPPORTED_HARM_CATEGORIES)[number],
      ) -
      SUPPORTED_HARM_CATEGORIES.indexOf(
        right.category as (typeof SUPPORTED_HARM_CATEGORIES)[number],
      ),
  );
  return { ...settings, safetySettings };
}

/** The form field (snake_case, as in the server's field paths) a violation belongs to. */
export function violationField(violation: FieldViolation): string {
  const path = violation.field.replace(/^(generation_config|generationConfig)\.?/, "");
  const first = path.split(/[.[]/)[0] ?? "";
  return first.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) || "generation_config";
}

export type SettingsViolations = Record<string, string[]>;

/**
 * Every rule of the server the settings break, with the server's field paths: the tools and
 * tool config always, the generationConfig once the model's traits are known.
 */
export function settingsFieldViolations(
  settings: ConversationSettings,
  traits: ModelTraits | undefined,
): FieldViolation[] {
  return [
    ...(traits ? validateGenerationConfigFields(settings.generationConfig, traits) : []),
    ...validateToolFields(settings.tools, settings.toolConfig),
    ...cachedContentConflicts(settings),
  ];
}

const CACHE_CARRIES_ITS_OWN =
  "This chat uses a cached content, which carries its own system instruction and tools: the service refuses a request that sets them too. Clear this, or start a chat without the cache.";

/**
 * The service refuses a cached content beside a system instruction, tools or a tool config;
 * each that is set is marked at its own field.
 */
export function cachedContentConflicts(settings: ConversationSettings): FieldViolation[] {
  if (!settings.cachedContent) return [];
  const violations: FieldViolation[] = [];
  if (settings.systemInstruction.trim())
    violations.push({ field: "system_instruction", description: CACHE_CARRIES_ITS_OWN });
  if (settings.tools?.length)
    violations.push({ field: "tools", description: CACHE_CARRIES_ITS_OWN });
  if (settings.toolConfig)
    violations.push({ field: "tool_config", description: CACHE_CARRIES_ITS_OWN });
  return violations;
}

/** The settings a chat opened on `cachedContent` starts with: its model, and nothing the cache carries. */
export function settingsForCache(
  settings: ConversationSettings,
  cache: { name: string; model: string },
): ConversationSettings {
  const { tools: _tools, toolConfig: _toolConfig, ...rest } = settings;
  return { ...rest, model: cache.model, systemInstruction: "", cachedContent: cache.name };
}

/**
 * Inline validation of the settings: the server's rules for the chosen model, grouped by form
 * field. Empty when the server will accept them.
 */
export function validateSettings(
  settings: ConversationSettings,
  traits: ModelTraits | undefined,
): SettingsViolations {
  const grouped: SettingsViolations = {};
  for (const violation of settingsFieldViolations(settings, traits)) {
    const field = violationField(violation);
    (grouped[field] ??= []).push(violation.description);
  }
  return grouped;
}

export function violationCount(violations: SettingsViolations): number {
  return Object.values(violations).reduce((total, list) => total + list.length, 0);
}
