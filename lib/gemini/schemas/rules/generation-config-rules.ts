/**
 * Rules for generationConfig against the model's traits: output format (mime type, schema,
 * JSON schema), response modalities, sampling ranges, candidates, logprobs, thinking and
 * speech. Shared by the request validation and the studio's settings form. Whole: the
 * fields' rules depend on one another (a schema needs a JSON mime type, thinking a budget).
 */
import { checkJsonSchemaSubsetSteps } from "../../json-schema-subset";
import type { ModelTraits } from "../../model-traits";
import type { GenerationConfig, Schema, SpeechConfig, VoiceConfig } from "../../types";
import {
  MAX_CANDIDATE_COUNT,
  MAX_LOGPROBS,
  MAX_STOP_SEQUENCES,
  PENALTY_RANGE,
  PREBUILT_VOICE_NAMES,
  RESPONSE_MIME_TYPES,
  SPEECH_LANGUAGE_CODES,
} from "../constants";
import { isPlainObject } from "../wire";
import { runSteps, type Steps } from "../../steps";
import { Violations, listWords } from "./violations";
import { asksForThinking } from "./model-capability-rules";
import { checkSchemaSteps } from "./tool-rules";

export interface GenerationConfigRuleOptions {
  /**
   * Whether a config without responseModalities is checked as a TEXT request: the studio's
   * settings form, which always sends them. Requests only check what is set (a request without
   * them gets the model's own).
   */
  modalitiesRequired: boolean;
}

/** Whether a schema can drive `text/x.enum`: a STRING schema with a non-empty enum. */
function isEnumSchema(schema: Schema | undefined): boolean {
  return (
    schema !== undefined &&
    (schema.type === "STRING" || schema.type === undefined) &&
    (schema.enum?.length ?? 0) > 0
  );
}

function isEnumJsonSchema(value: unknown): boolean {
  if (!isPlainObject(value) || !Array.isArray(value.enum) || value.enum.length === 0) return false;
  return (
    value.enum.every((item) => typeof item === "string") &&
    (value.type === undefined || value.type === "string")
  );
}

function formatCombination(modalities: readonly string[]): string {
  return `[${modalities.join(", ")}]`;
}

function sameModalities(requested: readonly string[], supported: readonly string[]): boolean {
  const left = [...new Set(requested)].sort();
  const right = [...new Set(supported)].sort();
  return left.length === right.length && left.every((modality, index) => modality === right[index]);
}

function checkVoiceConfig(voiceConfig: VoiceConfig, path: string, violations: Violations): void {
  const prebuilt = voiceConfig.prebuiltVoiceConfig;
  if (!prebuilt) {
    violations.add(`${path}.prebuilt_voice_config`, "voice_config must set prebuilt_voice_config.");
    return;
  }
  const name = prebuilt.voiceName;
  if (name === undefined || name === "") {
    violations.add(
      `${path}.prebuilt_voice_config.voice_name`,
      `voice_name is required; choose one of ${PREBUILT_VOICE_NAMES.join(", ")}.`,
    );
  } else if (!(PREBUILT_VOICE_NAMES as readonly string[]).includes(name)) {
    violations.add(
      `${path}.prebuilt_voice_config.voice_name`,
      `"${name}" is not a prebuilt voice; choose one of ${PREBUILT_VOICE_NAMES.join(", ")}.`,
    );
  }
}

function checkSpeechConfig(
  speech: SpeechConfig,
  traits: ModelTraits,
  path: string,
  violations: Violations,
): void {
  if (!traits.responseModalities.some((combination) => combination.includes("AUDIO"))) {
    violations.add(
      path,
      `speech_config is only supported by models that answer with audio; ${traits.name} does not.`,
    );
  }
  if (speech.voiceConfig && speech.multiSpeakerVoiceConfig) {
    violations.add(
      path,
      "voice_config and multi_speaker_voice_config are mutually exclusive; set only one of them.",
    );
  }
  if (speech.voiceConfig) checkVoiceConfig(speech.voiceConfig, `${path}.voice_config`, violations);
  if (speech.multiSpeakerVoiceConfig) {
    const speakersPath = `${path}.multi_speaker_voice_config.speaker_voice_configs`;
    const speakers = speech.multiSpeakerVoiceConfig.speakerVoiceConfigs;
    if (speakers.length !== 2)
      violations.add(
        speakersPath,
        `multi-speaker speech needs exactly 2 speaker_voice_configs; got ${speakers.length}.`,
      );
    const names = new Set<string>();
    speakers.forEach((speaker, index) => {
      if (speaker.speaker === "")
        violations.add(
          `${speakersPath}[${index}].speaker`,
          "speaker_voice_configs.speaker is required.",
        );
      else if (names.has(speaker.speaker))
        violations.add(
          `${speakersPath}[${index}].speaker`,
          `speaker "${speaker.speaker}" is configured more than once; speaker names must be distinct.`,
        );
      names.add(speaker.speaker);
      checkVoiceConfig(speaker.voiceConfig, `${speakersPath}[${index}].voice_config`, violations);
    });
  }
  if (
    speech.languageCode !== undefined &&
    speech.languageCode !== "" &&
    !(SPEECH_LANGUAGE_CODES as readonly string[]).includes(speech.languageCode)
  ) {
    violations.add(
      `${path}.language_code`,
      `"${speech.languageCode}" is not a supported language_code; use one of ${SPEECH_LANGUAGE_CODES.join(", ")}.`,
    );
  }
}

function checkThinking(
  config: GenerationConfig,
  traits: ModelTraits,
  path: string,
  violations: Violations,
): void {
  const thinkingConfig = config.thinkingConfig;
  if (!thinkingConfig) return;
  const thinking = traits.thinking;
  if (!thinking) {
    // A config that asks for no thinking is harmless on a model without it.
    if (asksForThinking(config))
      violations.add(path, `thinking is not supported by ${traits.name}; remove thinking_config.`);
    return;
  }
  const budget = thinkingConfig.thinkingBudget;
  if (budget === undefined || budget === -1) return;
  const choices = `use -1 (dynamic)${thinking.canDisable ? ", 0 (off)" : ""} or a value between ${thinking.minBudget} and ${thinking.maxBudget}`;
  if (budget === 0) {
    if (!thinking.canDisable && !thinking.ignoresZeroBudget)
      violations.add(
        `${path}.thinking_budget`,
        `thinking_budget 0 is invalid: ${traits.name} only works in thinking mode; ${choices}.`,
      );
    return;
  }
  if (budget < thinking.minBudget || budget > thinking.maxBudget) {
    violations.add(
      `${path}.thinking_budget`,
      `thinking_budget ${budget} is invalid for ${traits.name}; ${choices}.`,
    );
  }
}

/** At most MAX_STOP_SEQUENCES stop sequences, none empty. */
function checkStopSequences(
  config: GenerationConfig,
  at: (field: string) => string,
  violations: Violations,
): void {
  if (config.stopSequences) {
    if (config.stopSequences.length > MAX_STOP_SEQUENCES) {
      violations.add(
        at("stop_sequences"),
        `at most ${MAX_STOP_SEQUENCES} stop sequences are allowed; got ${config.stopSequences.length}.`,
      );
    }
    config.stopSequences.forEach((sequence, index) => {
      if (sequence === "")
        violations.add(at(`stop_sequences[${index}]`), "a stop sequence must not be empty.");
    });
  }
}

/**
 * responseMimeType and what shapes it: one kind of schema, set only for structured output; an
 * enum for `text/x.enum`. One node of a response schema at a time.
 */
function* checkOutputFormatSteps(
  config: GenerationConfig,
  at: (field: string) => string,
  violations: Violations,
): Steps {
  const mimeType = config.responseMimeType === "" ? undefined : config.responseMimeType;
  const allowedMimeTypes = RESPONSE_MIME_TYPES.map((type) => `\`${type}\``);
  if (mimeType !== undefined && !(RESPONSE_MIME_TYPES as readonly string[]).includes(mimeType)) {
    violations.add(
      at("response_mime_type"),
      `allowed mimetypes are ${listWords(allowedMimeTypes)}; got \`${mimeType}\`.`,
    );
  }
  const structured = mimeType === "application/json" || mimeType === "text/x.enum";
  if (config.responseSchema !== undefined && config.responseJsonSchema !== undefined) {
    violations.add(
      at("response_schema"),
      "response_schema and response_json_schema are mutually exclusive; set only one of them.",
    );
  }
  if (config.responseSchema !== undefined) {
    if (!structured) {
      violations.add(
        at("response_schema"),
        `response_schema requires response_mime_type \`application/json\` or \`text/x.enum\`; got \`${mimeType ?? "text/plain"}\`.`,
      );
    }
    yield* checkSchemaSteps(config.responseSchema, at("response_schema"), violations);
  }
  if (config.responseJsonSchema !== undefined) {
    if (mimeType === undefined)
      violations.add(
        at("response_mime_type"),
        "response_mime_type must be set when response_json_schema is set.",
      );
    else if (!structured) {
      violations.add(
        at("response_json_schema"),
        `response_json_schema requires response_mime_type \`application/json\` or \`text/x.enum\`; got \`${mimeType}\`.`,
      );
    }
    violations.addAll(
      yield* checkJsonSchemaSubsetSteps(config.responseJsonSchema, at("response_json_schema")),
    );
  }
  if (
    mimeType === "text/x.enum" &&
    !isEnumSchema(config.responseSchema) &&
    !isEnumJsonSchema(config.responseJsonSchema)
  ) {
    violations.add(
      at("response_mime_type"),
      "`text/x.enum` requires a response_schema of type STRING with an enum of strings.",
    );
  }
}

/** A combination of response modalities the model answers with (TEXT when none is set and one is required). */
function checkResponseModalities(
  config: GenerationConfig,
  traits: ModelTraits,
  at: (field: string) => string,
  violations: Violations,
  options: GenerationConfigRuleOptions,
): void {
  if (config.responseModalities !== undefined || options.modalitiesRequired) {
    const requested = config.responseModalities?.length ? config.responseModalities : ["TEXT"];
    if (!traits.responseModalities.some((combination) => sameModalities(requested, combination))) {
      violations.add(
        at("response_modalities"),
        `the requested combination of response modalities ${formatCombination(requested)} is not supported by ${traits.name}; it supports ${traits.responseModalities.map(formatCombination).join(" or ")}.`,
      );
    }
  }
}

/** candidateCount and maxOutputTokens within what the model allows. */
function checkOutputSize(
  config: GenerationConfig,
  traits: ModelTraits,
  at: (field: string) => string,
  violations: Violations,
): void {
  if (config.candidateCount !== undefined) {
    const count = config.candidateCount;
    if (count < 1)
      violations.add(at("candidate_count"), `candidate_count must be at least 1; got ${count}.`);
    else if (count > 1 && traits.singleCandidateOnly) {
      violations.add(
        at("candidate_count"),
        `multiple candidates are not supported by ${traits.name}: candidate_count does not work on the previous model generation.`,
      );
    } else if (count > MAX_CANDIDATE_COUNT)
      violations.add(
        at("candidate_count"),
        `candidate_count must be at most ${MAX_CANDIDATE_COUNT}; got ${count}.`,
      );
  }

  if (config.maxOutputTokens !== undefined) {
    const tokens = config.maxOutputTokens;
    if (tokens < 1)
      violations.add(
        at("max_output_tokens"),
        `max_output_tokens must be at least 1; got ${tokens}.`,
      );
    else if (tokens > traits.outputTokenLimit) {
      violations.add(
        at("max_output_tokens"),
        `max_output_tokens must be at most ${traits.outputTokenLimit} for ${traits.name}; got ${tokens}.`,
      );
    }
  }
}

/** temperature, topP, topK (only on models that apply it) and the penalties in their ranges. */
function checkSampling(
  config: GenerationConfig,
  traits: ModelTraits,
  at: (field: string) => string,
  violations: Violations,
): void {
  if (config.temperature !== undefined) {
    const maximum = Math.min(2, traits.maxTemperature);
    if (config.temperature < 0 || config.temperature > maximum) {
      violations.add(
        at("temperature"),
        `temperature must be in the range [0, ${maximum}]${maximum < 2 ? ` for ${traits.name}` : ""}; got ${config.temperature}.`,
      );
    }
  }
  if (config.topP !== undefined && (config.topP < 0 || config.topP > 1)) {
    violations.add(at("top_p"), `top_p must be in the range [0, 1]; got ${config.topP}.`);
  }
  if (config.topK !== undefined) {
    if (traits.topK === undefined)
      violations.add(
        at("top_k"),
        `${traits.name} does not apply top-K sampling; top_k cannot be set.`,
      );
    else if (config.topK < 1)
      violations.add(at("top_k"), `top_k must be at least 1; got ${config.topK}.`);
  }
  for (const [key, name] of [
    ["presencePenalty", "presence_penalty"],
    ["frequencyPenalty", "frequency_penalty"],
  ] as const) {
    const penalty = config[key];
    if (
      penalty !== undefined &&
      (penalty < PENALTY_RANGE.minimum || penalty >= PENALTY_RANGE.exclusiveMaximum)
    ) {
      violations.add(
        at(name),
        `${name} must be in the range [${PENALTY_RANGE.minimum}, ${PENALTY_RANGE.exclusiveMaximum}); got ${penalty}.`,
      );
    }
  }
}

/** logprobs only with responseLogprobs, within MAX_LOGPROBS. */
function checkLogprobs(
  config: GenerationConfig,
  at: (field: string) => string,
  violations: Violations,
): void {
  if (config.logprobs !== undefined) {
    if (config.responseLogprobs !== true)
      violations.add(at("logprobs"), "logprobs can only be set when response_logprobs is true.");
    if (config.logprobs < 0 || config.logprobs > MAX_LOGPROBS)
      violations.add(
        at("logprobs"),
        `logprobs must be in the range [0, ${MAX_LOGPROBS}]; got ${config.logprobs}.`,
      );
  }
}

/**
 * Checks a parsed generationConfig at `path` (`generation_config`,
 * `generate_content_request.generation_config`) against `traits`.
 */
export function checkGenerationConfig(
  config: GenerationConfig,
  traits: ModelTraits,
  path: string,
  violations: Violations,
  options: GenerationConfigRuleOptions,
): void {
  runSteps(checkGenerationConfigSteps(config, traits, path, violations, options));
}

/** checkGenerationConfig, one node of a response schema at a time. */
export function* checkGenerationConfigSteps(
  config: GenerationConfig,
  traits: ModelTraits,
  path: string,
  violations: Violations,
  options: GenerationConfigRuleOptions,
): Steps {
  const at = (field: string) => `${path}.${field}`;
  checkStopSequences(config, at, violations);
  yield* checkOutputFormatSteps(config, at, violations);
  checkResponseModalities(config, traits, at, violations, options);
  checkOutputSize(config, traits, at, violations);
  checkSampling(config, traits, at, violations);
  checkLogprobs(config, at, violations);
  checkThinking(config, traits, at("thinking_config"), violations);
  if (config.speechConfig)
    checkSpeechConfig(config.speechConfig, traits, at("speech_config"), violations);
}
