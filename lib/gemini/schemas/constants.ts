/**
 * Value lists of the request side, shared by the validation rules and the studio's forms
 * (dropdowns, inline hints). Browser-safe.
 */

/** The prebuilt voices of the speech models. */
export const PREBUILT_VOICE_NAMES = [
  "Zephyr",
  "Puck",
  "Charon",
  "Kore",
  "Fenrir",
  "Leda",
  "Orus",
  "Aoede",
  "Callirrhoe",
  "Autonoe",
  "Enceladus",
  "Iapetus",
  "Umbriel",
  "Algieba",
  "Despina",
  "Erinome",
  "Algenib",
  "Rasalgethi",
  "Laomedeia",
  "Achernar",
  "Alnilam",
  "Schedar",
  "Gacrux",
  "Pulcherrima",
  "Achird",
  "Zubenelgenubi",
  "Vindemiatrix",
  "Sadachbia",
  "Sadaltager",
  "Sulafat",
] as const;

/** speechConfig.languageCode values the spec allows. */
export const SPEECH_LANGUAGE_CODES = [
  "de-DE",
  "en-AU",
  "en-GB",
  "en-IN",
  "en-US",
  "es-US",
  "fr-FR",
  "hi-IN",
  "pt-BR",
  "ar-XA",
  "es-ES",
  "fr-CA",
  "id-ID",
  "it-IT",
  "ja-JP",
  "tr-TR",
  "vi-VN",
  "bn-IN",
  "gu-IN",
  "kn-IN",
  "ml-IN",
  "mr-IN",
  "ta-IN",
  "te-IN",
  "nl-NL",
  "ko-KR",
  "cmn-CN",
  "pl-PL",
  "ru-RU",
  "th-TH",
] as const;

export const RESPONSE_MIME_TYPES = ["text/plain", "application/json", "text/x.enum"] as const;

/** Modality as requested in generationConfig.responseModalities. */
export const RESPONSE_MODALITIES = ["MODALITY_UNSPECIFIED", "TEXT", "IMAGE", "AUDIO"] as const;

export const MEDIA_RESOLUTIONS = [
  "MEDIA_RESOLUTION_UNSPECIFIED",
  "MEDIA_RESOLUTION_LOW",
  "MEDIA_RESOLUTION_MEDIUM",
  "MEDIA_RESOLUTION_HIGH",
] as const;

/** Every HarmCategory name the wire knows; only SUPPORTED_HARM_CATEGORIES pass validation. */
export const HARM_CATEGORIES = [
  "HARM_CATEGORY_UNSPECIFIED",
  "HARM_CATEGORY_DEROGATORY",
  "HARM_CATEGORY_TOXICITY",
  "HARM_CATEGORY_VIOLENCE",
  "HARM_CATEGORY_SEXUAL",
  "HARM_CATEGORY_MEDICAL",
  "HARM_CATEGORY_DANGEROUS",
  "HARM_CATEGORY_HARASSMENT",
  "HARM_CATEGORY_HATE_SPEECH",
  "HARM_CATEGORY_SEXUALLY_EXPLICIT",
  "HARM_CATEGORY_DANGEROUS_CONTENT",
  "HARM_CATEGORY_CIVIC_INTEGRITY",
] as const;

export const HARM_BLOCK_THRESHOLDS = [
  "HARM_BLOCK_THRESHOLD_UNSPECIFIED",
  "BLOCK_LOW_AND_ABOVE",
  "BLOCK_MEDIUM_AND_ABOVE",
  "BLOCK_ONLY_HIGH",
  "BLOCK_NONE",
  "OFF",
] as const;

/** At most this many stop sequences (spec, Limits). */
export const MAX_STOP_SEQUENCES = 5;
/** Candidates per request on models that allow more than one (the service's documented cap). */
export const MAX_CANDIDATE_COUNT = 8;
/** logprobs: top candidates per decoding step. */
export const MAX_LOGPROBS = 20;
/**
 * presencePenalty and frequencyPenalty range: [-2.0, 2.0), as the service's model reference
 * documents it ("minimum -2.0, maximum up to but not including 2.0").
 */
export const PENALTY_RANGE = { minimum: -2, exclusiveMaximum: 2 } as const;
/** Longest cachedContent displayName, in Unicode characters. */
export const MAX_DISPLAY_NAME_CHARACTERS = 128;
/**
 * Longest cachedContent ttl we accept: 3,650 days. The service documents no maximum; this
 * bound keeps every expireTime a four-digit-year RFC 3339 timestamp.
 */
export const MAX_CACHE_TTL_SECONDS = 3650 * 24 * 3600;

/** ThinkingConfig.thinkingLevel values (Gemini 3). */
export const THINKING_LEVELS = [
  "THINKING_LEVEL_UNSPECIFIED",
  "MINIMAL",
  "LOW",
  "MEDIUM",
  "HIGH",
] as const;
