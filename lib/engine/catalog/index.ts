/**
 * The local engine's model catalog, read from models.json (the one data file of every model
 * and its traits; `npm run catalog:update` rebuilds it, see its `about`). Listed models are
 * what `GET models` answers; models no longer listed stay served. An alias answers as its
 * target: the target's traits and `modelVersion`, under the alias's own name and resource.
 * Whole: the one reader of models.json, its types beside the lookups that use them.
 */
import type { ImplicitCacheTraits } from "@/lib/engine/caches/implicit-prefix";
import { ApiError } from "@/lib/gemini/api-error";
import type { ModelTraits, ThinkingTraits, TokenizerFamily } from "@/lib/gemini/model-traits";
import type { InputModality, ModelPurpose } from "@/lib/gemini/model-uses";
import type { MediaTokenRules, PromptTokenRules } from "@/lib/gemini/prompt-token-rules";
import type { Model } from "@/lib/gemini/types";
import type { EmbeddingTraits } from "@/lib/gemini/embedding-types";
import data from "./models.json";

/**
 * Which optional fields a family's answers carry and where, as recorded of the service (each
 * family's `about` in models.json says where its values come from). Read by
 * lib/engine/generate/answer-shape.ts.
 */
export interface AnswerTraits {
  /**
   * `candidates[].index` on every candidate. False: index 0 is left out like any other zero
   * value (1.5 and 2.0 wrote proto3 defaults that way), later indexes are written.
   */
  candidateIndex: boolean;
  /** `candidates[].avgLogprobs` on a whole (unary) answer without being asked for; never streamed. */
  avgLogprobs: boolean;
  /** `usageMetadata.candidatesTokensDetails` (the answer's tokens per modality). */
  candidatesTokensDetails: boolean;
  /** `usageMetadata.serviceTier`: the tier that served the request, lower case ("standard"). */
  serviceTier: boolean;
  /** `functionCall.id` on calls the model makes. */
  functionCallIds: boolean;
  /** `finishMessage` on a candidate whose finishing message carries function calls. */
  finishMessage: boolean;
  /**
   * Where `thoughtSignature`s go. `function-declarations`: on the first answer part of a
   * thinking answer to a request that declares functions (2.5). `every-answer`: on the first
   * answer part of every answer, thinking or not; a stream sends it on its last event, on an
   * empty text part, unless the first answer part is a function call (Gemini 3).
   */
  thoughtSignatures: "none" | "function-declarations" | "every-answer";
  /**
   * A stream's finishReason comes on an event of its own whose content is one empty text part
   * (Gemini 3); false: on the event with the last of the answer.
   */
  finishOnEmptyPart: boolean;
  /**
   * In a stream, thought summaries (includeThoughts) are sent only once thinking has gone on for
   * this many tokens, or is cut short by maxOutputTokens; shorter thinking streams none (Gemini
   * 3: its summaries are written while the model thinks). Absent: always, as in whole answers.
   */
  streamedThoughtsAfterTokens?: number;
  /**
   * False: includeThoughts is accepted but no thought summary is returned (the 2.0 Flash
   * Thinking experiments, recorded in 2025). Absent: summaries as asked.
   */
  thoughtSummaries?: boolean;
}

/**
 * How long a family thinks when the choice is its own (a budget above it, or dynamic thinking),
 * in thinking tokens, by the kind of ask: the median thoughtsTokenCount of the family's recorded
 * answers of that kind (generate/thinking-length.test.ts recomputes each from the recordings). A kind the
 * recordings never show thinks as long as a plain ask. Read by
 * lib/engine/generate/thinking-length.ts, which says what each kind is.
 */
export interface ThinkingLengthTraits {
  /** An ask with none of the below: text, media, or both. */
  plain: number;
  /** An ask with tools: function declarations or built-in tools (search, URL context, code). */
  tools?: number;
  /** An answer constrained to JSON or an enum (responseMimeType). */
  structuredOutput?: number;
  /** An answer to function results (the last turn carries functionResponse parts). */
  functionResponse?: number;
}

export interface CatalogEntry {
  traits: ModelTraits;
  /** The wire resource, as models.list and models.get answer it. */
  model: Model;
  /** Named by the service's newest models.list (false: kept for old callers, not listed). */
  listed: boolean;
  /** Why the service refuses this model now: the engine answers its 404 (the traits stay known). */
  retired?: string;
  /** What answers carry in `modelVersion`: the model that actually answers. */
  modelVersion: string;
  answer: AnswerTraits;
  /** How long its thinking runs when the model chooses (absent: the model does not think). */
  thinkingLength?: ThinkingLengthTraits;
  /** What its vectors are and which inputs it takes (embedding models only). */
  embedding?: EmbeddingTraits;
  /** How it caches repeated prompt prefixes on its own (absent: it does not). */
  implicitCache?: ImplicitCacheTraits;
  family: string;
  /** What the model is for (published; the studio groups models by it). */
  purpose: ModelPurpose;
  /** What its prompts may hold (published). */
  inputModalities: InputModality[];
}

type PromptTokenRulesData = Partial<Omit<PromptTokenRules, "media">> & {
  about?: string;
  media?: Partial<MediaTokenRules>;
};

interface FamilyData {
  extends?: string;
  purpose?: ModelPurpose;
  inputModalities?: InputModality[];
  tokenizer?: TokenizerFamily;
  roleTokenPerContent?: boolean;
  countTokensRoleTokens?: boolean;
  imageOutputRoleTokens?: boolean;
  /**
   * How the service counts tools, function parts and media; `about` says from what. Merged
   * rule by rule (media too) over the family it extends: a family states what differs.
   */
  promptTokens?: PromptTokenRulesData;
  /** The family whose tokenizer, role tokens and prompt rules count this family's caches. */
  cacheCountedAs?: string;
  /** The family whose role tokens and prompt rules answer this family's countTokens (its own vocabulary). */
  countTokensCountedAs?: string;
  minCacheTokens?: number;
  responseModalities?: string[][];
  singleCandidateOnly?: boolean;
  defaultSafetyThreshold?: ModelTraits["defaultSafetyThreshold"];
  thinking?: ThinkingTraits | null;
  logprobs?: boolean;
  externalFileUris?: boolean;
  unsupportedModalities?: ModelTraits["unsupportedModalities"];
  builtInTools?: ModelTraits["builtInTools"];
  /** Merged field by field over the family's own (a model or family sets what differs). */
  answer?: Partial<AnswerTraits>;
  /** A family's own replaces the one of the family it extends; `about` says from what. */
  thinkingLength?: ThinkingLengthTraits & { about?: string };
  /** An embedding family's vectors and inputs; replaces the one of the family it extends. */
  embedding?: EmbeddingTraits & { about?: string };
  /** Implicit caching (null: none); a family's own replaces the one it extends. */
  implicitCache?: (ImplicitCacheTraits & { about?: string }) | null;
}

/** A model's own traits: what it did differently from its family (prompt-token rules field by field). */
interface ModelTraitsData extends Omit<FamilyData, "promptTokens"> {
  promptTokens?: Partial<PromptTokenRules> & { about?: string };
}

interface ModelData {
  name: string;
  listed: boolean;
  /** Why the service refuses this model now (its 404 is the newest recording): not served. */
  retired?: string;
  family: string;
  aliasOf?: string;
  modelVersion?: string;
  traits?: ModelTraitsData;
  resource: Model;
}

const FAMILIES = data.families as Record<string, FamilyData>;
const FAMILY_RULES = (data.familyRules as [string, string][]).map(
  ([pattern, family]) => [new RegExp(pattern), family] as const,
);
const MODELS = data.models as ModelData[];
const BY_DATA_NAME = new Map(MODELS.map((model) => [model.name, model]));

/** A family's traits with those of the families it extends underneath. */
function familyTraits(name: string, seen: string[] = []): FamilyData {
  const family = FAMILIES[name];
  if (!family || seen.includes(name))
    throw new Error(`catalog: unknown or circular family ${name}`);
  const base: FamilyData = family.extends ? familyTraits(family.extends, [...seen, name]) : {};
  const promptTokens = base.promptTokens
    ? {
        ...base.promptTokens,
        ...family.promptTokens,
        media: { ...base.promptTokens.media, ...family.promptTokens?.media },
      }
    : family.promptTokens;
  return {
    ...base,
    ...family,
    answer: { ...base.answer, ...family.answer },
    ...(promptTokens ? { promptTokens } : {}),
  };
}

/** The model that answers for `model`: itself, or the end of its alias chain. */
function answeringModel(model: ModelData, seen: string[] = []): ModelData {
  if (!model.aliasOf || seen.includes(model.name)) return model;
  const target = BY_DATA_NAME.get(model.aliasOf);
  return target ? answeringModel(target, [...seen, model.name]) : model;
}

function required<T>(value: T | undefined, field: string, model: string): T {
  if (value === undefined) throw new Error(`catalog: ${model} has no ${field}`);
  return value;
}

/** The rules without the data file's note on where they come from, every rule present. */
function promptTokenRules(data: PromptTokenRulesData, model: string): PromptTokenRules {
  const { about: _about, media, ...rules } = data;
  const rule = <T>(value: T | undefined, field: string) =>
    required(value, `promptTokens.${field}`, model);
  const given = required(media, "promptTokens.media", model);
  return {
    functionText: rule(rules.functionText, "functionText"),
    thoughtSignatures: rule(rules.thoughtSignatures, "thoughtSignatures"),
    responseSchema: rule(rules.responseSchema, "responseSchema"),
    media: {
      image: rule(given.image, "media.image"),
      documentPage: rule(given.documentPage, "media.documentPage"),
      videoFrame: rule(given.videoFrame, "media.videoFrame"),
      videoFrameExtra: rule(given.videoFrameExtra, "media.videoFrameExtra"),
      videoFrames: rule(given.videoFrames, "media.videoFrames"),
      videoAudio: rule(given.videoAudio, "media.videoAudio"),
      audioTokensPerSecond: rule(given.audioTokensPerSecond, "media.audioTokensPerSecond"),
      ...(given.audioWholeSeconds ? { audioWholeSeconds: true } : {}),
      audioGapless: rule(given.audioGapless, "media.audioGapless"),
      ...(given.returnedPagesAsImages ? { returnedPagesAsImages: true } : {}),
    },
  };
}

/** The counting traits of the family a model's caches are counted as. */
function cacheTokenTraits(family: FamilyData, model: string): ModelTraits["cacheTokens"] {
  return {
    tokenizer: required(family.tokenizer, "cache tokenizer", model),
    roleTokenPerContent: required(family.roleTokenPerContent, "cache roleTokenPerContent", model),
    promptTokens: promptTokenRules(
      required(family.promptTokens, "cache promptTokens", model),
      model,
    ),
  };
}

/**
 * The counting traits of a model's countTokens answers, where the service counts them as another
 * family does: that family's role tokens and prompt rules, the model's own vocabulary (`tokenizer`).
 */
function countTokensTraits(
  family: FamilyData,
  tokenizer: TokenizerFamily,
  model: string,
): ModelTraits["countTokensCounting"] {
  return {
    tokenizer,
    countTokensRoleTokens: required(
      family.countTokensRoleTokens,
      "countTokens countTokensRoleTokens",
      model,
    ),
    promptTokens: promptTokenRules(
      required(family.promptTokens, "countTokens promptTokens", model),
      model,
    ),
  };
}

/** The embedding traits without the data file's note on where they come from. */
function embeddingTraits({
  about: _about,
  ...traits
}: EmbeddingTraits & { about?: string }): EmbeddingTraits {
  return traits;
}

/** The lengths without the data file's note on where they come from. */
function thinkingLengthTraits({
  about: _about,
  ...lengths
}: ThinkingLengthTraits & { about?: string }): ThinkingLengthTraits {
  return lengths;
}

function buildEntry(model: ModelData): CatalogEntry {
  const answering = answeringModel(model);
  // An alias's own overrides (what it did differently in recordings) go over its target's.
  const family = familyTraits(answering.family);
  const traits = { ...family, ...answering.traits, ...model.traits };
  // Prompt-token rules too, so a model states only the rule it counted differently.
  const promptTokens = family.promptTokens && {
    ...family.promptTokens,
    ...answering.traits?.promptTokens,
    ...model.traits?.promptTokens,
  };
  // Answer traits are merged field by field, so a model states only what it did differently.
  const answer = { ...family.answer, ...answering.traits?.answer, ...model.traits?.answer };
  const resource = model.resource;
  const name = model.name;
  const thinking = traits.thinking ?? undefined;
  const cacheFamily = traits.cacheCountedAs ? familyTraits(traits.cacheCountedAs) : undefined;
  const countTokensFamily = traits.countTokensCountedAs
    ? familyTraits(traits.countTokensCountedAs)
    : undefined;
  return {
    model: resource,
    listed: model.listed,
    ...(model.retired ? { retired: model.retired } : {}),
    modelVersion:
      model.modelVersion ?? answering.modelVersion ?? answering.name.replace(/^models\//, ""),
    answer: completeAnswer(answer, name),
    ...(thinking
      ? {
          thinkingLength: thinkingLengthTraits(
            required(traits.thinkingLength, "thinkingLength", name),
          ),
        }
      : {}),
    ...(traits.embedding ? { embedding: embeddingTraits(traits.embedding) } : {}),
    ...(traits.implicitCache
      ? {
          implicitCache: {
            blockTokens: traits.implicitCache.blockTokens,
            minTokens: traits.implicitCache.minTokens,
            ttlSeconds: traits.implicitCache.ttlSeconds,
          },
        }
      : {}),
    family: answering.family,
    purpose: required(traits.purpose, "purpose", name),
    inputModalities: required(traits.inputModalities, "inputModalities", name),
    traits: {
      name,
      inputTokenLimit: resource.inputTokenLimit ?? 1_048_576,
      outputTokenLimit: resource.outputTokenLimit ?? 8_192,
      supportedGenerationMethods: resource.supportedGenerationMethods ?? [],
      temperature: resource.temperature ?? 1,
      maxTemperature: resource.maxTemperature ?? 2,
      topP: resource.topP ?? 0.95,
      ...(resource.topK !== undefined ? { topK: resource.topK } : {}),
      ...(thinking ? { thinking } : {}),
      minCacheTokens: required(traits.minCacheTokens, "minCacheTokens", name),
      responseModalities: required(traits.responseModalities, "responseModalities", name),
      singleCandidateOnly: required(traits.singleCandidateOnly, "singleCandidateOnly", name),
      tokenizer: required(traits.tokenizer, "tokenizer", name),
      roleTokenPerContent: required(traits.roleTokenPerContent, "roleTokenPerContent", name),
      countTokensRoleTokens: required(traits.countTokensRoleTokens, "countTokensRoleTokens", name),
      ...(traits.imageOutputRoleTokens ? { imageOutputRoleTokens: true } : {}),
      promptTokens: promptTokenRules(required(promptTokens, "promptTokens", name), name),
      ...(cacheFamily ? { cacheTokens: cacheTokenTraits(cacheFamily, name) } : {}),
      ...(countTokensFamily
        ? {
            countTokensCounting: countTokensTraits(
              countTokensFamily,
              required(traits.tokenizer, "tokenizer", name),
              name,
            ),
          }
        : {}),
      defaultSafetyThreshold: required(
        traits.defaultSafetyThreshold,
        "defaultSafetyThreshold",
        name,
      ),
      logprobs: required(traits.logprobs, "logprobs", name),
      externalFileUris: required(traits.externalFileUris, "externalFileUris", name),
      unsupportedModalities: required(traits.unsupportedModalities, "unsupportedModalities", name),
      builtInTools: traits.builtInTools ?? [],
    },
  };
}

const ANSWER_FIELDS: readonly (keyof AnswerTraits)[] = [
  "candidateIndex",
  "avgLogprobs",
  "candidatesTokensDetails",
  "serviceTier",
  "functionCallIds",
  "finishMessage",
  "thoughtSignatures",
  "finishOnEmptyPart",
];

function completeAnswer(answer: Partial<AnswerTraits>, model: string): AnswerTraits {
  for (const field of ANSWER_FIELDS) required(answer[field], `answer trait ${field}`, model);
  return answer as AnswerTraits;
}

/** Every model the engine serves: listed ones in the service's order, then the others. */
export const CATALOG: readonly CatalogEntry[] = MODELS.map(buildEntry);

/** What `GET models` lists. */
export const LISTED_MODELS: readonly Model[] = CATALOG.filter((entry) => entry.listed).map(
  (entry) => entry.model,
);

const BY_NAME = new Map(CATALOG.map((item) => [item.traits.name, item]));

/**
 * The catalog's reading of a model resource another service lists (the gateway's upstream):
 * the catalog's own entry when it knows the name, else the traits of the family the first
 * family rule matching its id names, with the resource's own limits and defaults; undefined
 * when no rule matches (a model the catalog knows nothing of). The rules name families of
 * models that generate content: a model that does not (embeddings, media) matches none.
 */
export function catalogEntryForResource(resource: Model): CatalogEntry | undefined {
  const name = resource.name.startsWith("models/") ? resource.name : `models/${resource.name}`;
  const known = BY_DATA_NAME.get(name);
  const id = name.slice("models/".length);
  const generates = resource.supportedGenerationMethods?.includes("generateContent") ?? false;
  const family =
    known?.family ??
    (generates ? FAMILY_RULES.find(([pattern]) => pattern.test(id))?.[1] : undefined);
  if (!family) return undefined;
  return buildEntry({ ...known, name, listed: true, family, resource: { ...resource, name } });
}

/** Accepts `models/x` or a bare `x`. */
export function findModel(name: string): CatalogEntry | undefined {
  return BY_NAME.get(name.startsWith("models/") ? name : `models/${name}`);
}

/** The catalog entry for a model path segment, or the service's 404 naming the method. */
export function requireModel(name: string, method: string): CatalogEntry {
  const found = findModel(name);
  const resource = name.startsWith("models/") ? name : `models/${name}`;
  const refused =
    !found ||
    found.retired !== undefined ||
    (method !== "get" && !found.traits.supportedGenerationMethods.includes(method));
  if (refused) {
    throw ApiError.notFound(
      `${resource} is not found for API version v1beta, or is not supported for ${method}. Call ModelService.ListModels to see the list of available models and their supported methods.`,
    );
  }
  return found;
}
