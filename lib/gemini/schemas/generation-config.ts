/**
 * GenerationConfig with its nested SpeechConfig and ThinkingConfig, and SafetySetting: every
 * field of the spec's GenerationConfig table plus responseJsonSchema.
 */
import { z } from "zod";
import type {
  GenerationConfig,
  SafetySetting,
  SpeechConfig,
  ThinkingConfig,
  VoiceConfig,
} from "../types";
import {
  HARM_BLOCK_THRESHOLDS,
  HARM_CATEGORIES,
  MEDIA_RESOLUTIONS,
  RESPONSE_MODALITIES,
  THINKING_LEVELS,
} from "./constants";
import { schemaSchema } from "./schema";
import {
  repeated,
  repeatedOrEmpty,
  wireBoolean,
  wireBytes,
  wireEnum,
  wireInteger,
  wireNumber,
  wireObject,
  wireString,
  wireText,
  wireStruct,
  wireValue,
} from "./wire";

export const prebuiltVoiceConfigSchema = wireObject("PrebuiltVoiceConfig", {
  voiceName: wireString().optional(),
});

export const replicatedVoiceConfigSchema = wireObject("ReplicatedVoiceConfig", {
  mimeType: wireString().optional(),
  voiceSampleAudio: wireBytes().optional(),
  consentAudio: wireBytes().optional(),
  voiceConsentSignature: wireStruct().optional(),
});

export const voiceConfigSchema: z.ZodType<VoiceConfig, unknown> = wireObject("VoiceConfig", {
  prebuiltVoiceConfig: prebuiltVoiceConfigSchema.optional(),
  replicatedVoiceConfig: replicatedVoiceConfigSchema.optional(),
});

export const speakerVoiceConfigSchema = wireObject("SpeakerVoiceConfig", {
  speaker: wireString(),
  voiceConfig: voiceConfigSchema,
});

export const multiSpeakerVoiceConfigSchema = wireObject("MultiSpeakerVoiceConfig", {
  speakerVoiceConfigs: repeatedOrEmpty(speakerVoiceConfigSchema),
});

export const speechConfigSchema: z.ZodType<SpeechConfig, unknown> = wireObject("SpeechConfig", {
  voiceConfig: voiceConfigSchema.optional(),
  multiSpeakerVoiceConfig: multiSpeakerVoiceConfigSchema.optional(),
  languageCode: wireString().optional(),
});

export const thinkingConfigSchema: z.ZodType<ThinkingConfig, unknown> = wireObject(
  "ThinkingConfig",
  {
    includeThoughts: wireBoolean().optional(),
    thinkingBudget: wireInteger().optional(),
    thinkingLevel: wireEnum("ThinkingConfig.ThinkingLevel", THINKING_LEVELS).optional(),
  },
);

export const generationConfigSchema: z.ZodType<GenerationConfig, unknown> = wireObject(
  "GenerationConfig",
  {
    stopSequences: repeated(wireText()).optional(),
    responseMimeType: wireString().optional(),
    responseSchema: schemaSchema.optional(),
    responseJsonSchema: wireValue().optional(),
    responseModalities: repeated(
      wireEnum("GenerationConfig.Modality", RESPONSE_MODALITIES),
    ).optional(),
    candidateCount: wireInteger().optional(),
    maxOutputTokens: wireInteger().optional(),
    temperature: wireNumber().optional(),
    topP: wireNumber().optional(),
    topK: wireInteger().optional(),
    seed: wireInteger().optional(),
    presencePenalty: wireNumber().optional(),
    frequencyPenalty: wireNumber().optional(),
    responseLogprobs: wireBoolean().optional(),
    logprobs: wireInteger().optional(),
    enableEnhancedCivicAnswers: wireBoolean().optional(),
    speechConfig: speechConfigSchema.optional(),
    thinkingConfig: thinkingConfigSchema.optional(),
    mediaResolution: wireEnum("GenerationConfig.MediaResolution", MEDIA_RESOLUTIONS).optional(),
    audioTranscriptionConfig: wireObject("AudioTranscriptionConfig", {
      languageCodes: repeated(wireString()).optional(),
      languageAuto: wireStruct().optional(),
      languageHints: wireObject("LanguageHints", {
        languageCodes: repeated(wireString()).optional(),
      }).optional(),
      customVocabulary: repeated(wireText()).optional(),
      adaptationPhrases: repeated(wireText()).optional(),
      wordTimestamp: wireBoolean().optional(),
      diarization: wireBoolean().optional(),
    }).optional(),
    imageConfig: wireObject("ImageConfig", {
      aspectRatio: wireString().optional(),
      imageSize: wireString().optional(),
    }).optional(),
  },
);

export const safetySettingSchema: z.ZodType<SafetySetting, unknown> = wireObject("SafetySetting", {
  category: wireEnum("HarmCategory", HARM_CATEGORIES),
  threshold: wireEnum("SafetySetting.HarmBlockThreshold", HARM_BLOCK_THRESHOLDS),
});
