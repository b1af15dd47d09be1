/**
 * Moving a conversation's settings to another model, by that model's facts: what it cannot
 * take is cleared (a hidden field must never hold an error) and what it needs is set (a
 * speech or music model's AUDIO, an image model's pictures), so the chat can send at once.
 * Each change the person would not expect is said in words.
 */
import { formatNumber } from "./number-format";
import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import type { ModelFacts } from "@/lib/studio/model-facts";
import {
  BUILT_IN_TOOLS,
  hasBuiltInTool,
  withBuiltInTool,
  withGenerationConfig,
  withNestedField,
} from "@/lib/studio/settings-model";
import type { ThinkingTraits } from "@/lib/gemini/model-traits";
import type { GenerationConfig } from "@/lib/gemini/types";

export interface ModelSwitch {
  settings: ConversationSettings;
  /** What changed besides the model, in words ("Thinking budget 0 cleared: … always thinks."). */
  changes: string[];
}

function sameCombination(left: readonly string[], right: readonly string[]): boolean {
  const a = [...new Set(left)].sort();
  const b = [...new Set(right)].sort();
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

/** Whether a thinking budget is one the model takes (-1 dynamic, 0 off where it can stop, its range). */
function budgetAccepted(budget: number, thinking: ThinkingTraits): boolean {
  if (budget === -1) return true;
  if (budget === 0) return thinking.canDisable || Boolean(thinking.ignoresZeroBudget);
  return budget >= thinking.minBudget && budget <= thinking.maxBudget;
}

/**
 * The generationConfig fields this model refuses, each with why; what the model needs is
 * applied by the caller.
 */
function refusedFields(
  config: GenerationConfig,
  facts: ModelFacts,
): [keyof GenerationConfig, string][] {
  const traits = facts.traits!;
  const name = facts.label;
  const refused: [keyof GenerationConfig, string][] = [];
  if (config.topK !== undefined && traits.topK === undefined)
    refused.push(["topK", `Top K cleared: ${name} does not sample by Top K.`]);
  if (
    config.candidateCount !== undefined &&
    config.candidateCount > 1 &&
    traits.singleCandidateOnly
  )
    refused.push(["candidateCount", `Candidate count cleared: ${name} answers one candidate.`]);
  if (config.maxOutputTokens !== undefined && config.maxOutputTokens > traits.outputTokenLimit)
    refused.push([
      "maxOutputTokens",
      `Max output tokens cleared: ${name} writes at most ${formatNumber(traits.outputTokenLimit)}.`,
    ]);
  if (config.temperature !== undefined && config.temperature > traits.maxTemperature)
    refused.push([
      "temperature",
      `Temperature cleared: ${name} takes at most ${traits.maxTemperature}.`,
    ]);
  if ((config.responseLogprobs || config.logprobs !== undefined) && !traits.logprobs) {
    refused.push(["responseLogprobs", `Logprobs cleared: ${name} does not return them.`]);
    refused.push(["logprobs", ""]);
  }
  const speaks = traits.responseModalities.some((combination) => combination.includes("AUDIO"));
  if (config.speechConfig && !speaks)
    refused.push(["speechConfig", `Voice cleared: ${name} does not answer in audio.`]);
  return refused;
}

/** The thinking config moved to the model: cleared where it cannot think, a budget it refuses dropped. */
function movedThinking(
  config: GenerationConfig,
  facts: ModelFacts,
  changes: string[],
): GenerationConfig["thinkingConfig"] {
  const thinkingConfig = config.thinkingConfig;
  if (!thinkingConfig) return undefined;
  const thinking = facts.traits!.thinking;
  if (!thinking) {
    if (thinkingConfig.includeThoughts || (thinkingConfig.thinkingBudget ?? 0) !== 0)
      changes.push(`Thinking settings cleared: ${facts.label} does not think.`);
    return undefined;
  }
  const budget = thinkingConfig.thinkingBudget;
  if (budget === undefined || budgetAccepted(budget, thinking)) return thinkingConfig;
  changes.push(
    budget === 0
      ? `Thinking budget 0 cleared: ${facts.label} always thinks.`
      : `Thinking budget ${budget} cleared: ${facts.label} takes ${thinking.minBudget}–${thinking.maxBudget} (or -1, dynamic).`,
  );
  return withNestedField(thinkingConfig, "thinkingBudget", undefined);
}

/** The response modalities moved to the model: kept when it answers them, else what it needs. */
function movedModalities(
  config: GenerationConfig,
  facts: ModelFacts,
  changes: string[],
): string[] | undefined {
  const offered = facts.traits!.responseModalities;
  const requested = config.responseModalities?.length ? config.responseModalities : ["TEXT"];
  if (offered.some((combination) => sameCombination(requested, combination)))
    return config.responseModalities;
  const needed = facts.needs.responseModalities;
  if (needed) {
    changes.push(
      `Response modalities set to ${needed.join(" and ")}: what ${facts.label} answers.`,
    );
    return needed;
  }
  if (config.responseModalities)
    changes.push(`Response modalities cleared: ${facts.label} answers in text.`);
  return undefined;
}

/**
 * Settings moved to `model`. Without the model's facts (still loading, or a model the catalog
 * knows nothing of) only the model changes: the service judges the rest.
 */
export function settingsForModel(
  settings: ConversationSettings,
  model: string,
  facts: ModelFacts | undefined,
): ModelSwitch {
  const moved: ConversationSettings = { ...settings, model };
  if (!facts?.traits) return { settings: moved, changes: [] };
  const changes: string[] = [];
  const config = settings.generationConfig;
  const cleared: Partial<Record<keyof GenerationConfig, undefined>> = {};
  for (const [field, why] of refusedFields(config, facts)) {
    cleared[field] = undefined;
    if (why) changes.push(why);
  }
  let next = withGenerationConfig(moved, {
    ...cleared,
    thinkingConfig: movedThinking(config, facts, changes),
    responseModalities: movedModalities(config, facts, changes),
  });
  for (const tool of BUILT_IN_TOOLS) {
    if (facts.traits.builtInTools?.includes(tool.key) || !hasBuiltInTool(next, tool.key)) continue;
    next = withBuiltInTool(next, tool.key, false);
    changes.push(`${tool.label} turned off: ${facts.label} does not offer it.`);
  }
  return { settings: next, changes };
}
