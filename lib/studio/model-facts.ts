/**
 * The studio's one source of model facts: what each model takes and returns, what it is for,
 * its rules (thinking, sampling, limits) and what a request to it needs. The server builds
 * them from the engine's catalog over whichever model list is in force (the engine's own, or
 * the upstream's through the gateway) and serves them at `/api/models`; the pages read only
 * these, never a rule guessed from a model's name. Safe in the browser.
 */
import type { ModelTraits } from "@/lib/gemini/model-traits";
import {
  acceptsMimeType,
  describeInputs,
  MODEL_PURPOSES,
  type InputModality,
  type ModelPurpose,
} from "@/lib/gemini/model-uses";
import type { GenerationConfig, Model } from "@/lib/gemini/types";

export interface ModelFacts {
  /** The wire resource, as the model list gave it. */
  model: Model;
  /** A name no other model of the list shows: the display name, with the id when two share it. */
  label: string;
  purpose: ModelPurpose;
  /** Whether the chat can send to it (it answers generateContent). */
  chats: boolean;
  /** What a prompt to it may hold. */
  inputs: InputModality[];
  /**
   * Its rules, from the catalog (by name, or by the family its name belongs to); absent for a
   * model the catalog knows nothing of, whose requests the upstream alone judges.
   */
  traits?: ModelTraits;
  /** generationConfig a request to it cannot do without (a speech model's AUDIO). */
  needs: Pick<GenerationConfig, "responseModalities">;
}

/** `/api/models`: the facts of every model of the list in force, and where the list came from. */
export interface ModelFactsList {
  models: ModelFacts[];
  /** `local`: the engine's catalog; `upstream`: the upstream's list read through the gateway. */
  source: "local" | "upstream";
  /** Set when the upstream's list could not be read and the catalog's is shown instead. */
  problem?: string;
}

const PURPOSE_GROUPS: Record<ModelPurpose, string> = {
  chat: "Chat",
  image: "Images",
  speech: "Speech",
  music: "Music",
  agent: "Agents",
  robotics: "Robotics",
  embedding: "Embeddings",
  other: "Other",
};

/** The picker's groups, in order, each with its models in the list's order. */
export function groupByPurpose(
  models: readonly ModelFacts[],
): { purpose: ModelPurpose; label: string; models: ModelFacts[] }[] {
  return MODEL_PURPOSES.map((purpose) => ({
    purpose,
    label: PURPOSE_GROUPS[purpose],
    models: models.filter((facts) => facts.purpose === purpose),
  })).filter((group) => group.models.length > 0);
}

/** The facts of one model of the list. */
export function factsOf(
  models: readonly ModelFacts[] | undefined,
  name: string,
): ModelFacts | undefined {
  return models?.find((facts) => facts.model.name === name);
}

function joinModalities(combination: readonly string[]): string {
  return combination.map((modality) => modality.toLowerCase()).join(" and ");
}

/**
 * What a model that does more (or other) than answer in text is for, in a sentence; null for
 * a plain chat model.
 */
export function purposeNote(facts: ModelFacts): string | null {
  const takes = `It takes ${describeInputs(facts.inputs)}.`;
  if (!facts.chats) {
    const methods = facts.model.supportedGenerationMethods ?? [];
    const what =
      facts.purpose === "embedding"
        ? "turns text into embeddings (embedContent)"
        : `serves ${methods.join(", ") || "no generation method"}`;
    return `${facts.label} ${what}; it does not answer chat messages. Use it from code (Get code), or choose a chat model.`;
  }
  const outputs = facts.traits?.responseModalities ?? [];
  switch (facts.purpose) {
    case "speech":
      return `Speech: it reads the prompt aloud, one prompt at a time (earlier turns are not sent); the answer is audio. ${takes}`;
    case "music":
      return `Music: it composes a clip from a description; the answer is audio. ${takes}`;
    case "image":
      return `Images: it answers with ${outputs.map(joinModalities).join(", or ")}. ${takes}`;
    case "agent":
    case "robotics":
      return `${facts.model.description ?? facts.label}. ${takes}`;
    default:
      return null;
  }
}

/** Why the chat cannot send to this model, or null when it can. */
export function chatRefusal(facts: ModelFacts | undefined): string | null {
  if (!facts || facts.chats) return null;
  return purposeNote(facts);
}

/**
 * Whether the model takes a part of this MIME type; true too when its facts are unknown (the
 * service judges a model the catalog knows nothing of).
 */
export function takesInput(facts: ModelFacts | undefined, mimeType: string): boolean {
  return !facts?.traits || acceptsMimeType(facts.inputs, mimeType);
}

/**
 * Why these files cannot go to the model, naming what it takes; null when every one can.
 * `verb` says what happens to them ("were not attached", "cannot be sent").
 */
export function inputsRefusal(
  facts: ModelFacts | undefined,
  files: readonly { displayName: string; mimeType: string }[],
  verb: string,
): string | null {
  const refused = files.filter((file) => !takesInput(facts, file.mimeType));
  if (!facts || !refused.length) return null;
  const names = refused.map((file) => `“${file.displayName}” (${file.mimeType || "unknown type"})`);
  return `${facts.label} takes ${describeInputs(facts.inputs)}: ${names.join(", ")} ${verb}.`;
}
