/**
 * Wire types of the API, named as in `@google/genai`'s types.ts. These are the normalised
 * (camelCase) shapes: request bodies become these after `lib/gemini/validate` has parsed them,
 * and responses are built from them. Safe in the browser. One file on purpose: the wire
 * vocabulary is read side by side with the SDK's one types.ts, and its types refer to each other.
 */
import type { EmbedContentResponse } from "./embedding-types";

export type HarmCategory =
  | "HARM_CATEGORY_UNSPECIFIED"
  | "HARM_CATEGORY_DEROGATORY"
  | "HARM_CATEGORY_TOXICITY"
  | "HARM_CATEGORY_VIOLENCE"
  | "HARM_CATEGORY_SEXUAL"
  | "HARM_CATEGORY_MEDICAL"
  | "HARM_CATEGORY_DANGEROUS"
  | "HARM_CATEGORY_HARASSMENT"
  | "HARM_CATEGORY_HATE_SPEECH"
  | "HARM_CATEGORY_SEXUALLY_EXPLICIT"
  | "HARM_CATEGORY_DANGEROUS_CONTENT"
  | "HARM_CATEGORY_CIVIC_INTEGRITY";

/** The five categories the current models rate and accept in safetySettings. */
export const SUPPORTED_HARM_CATEGORIES = [
  "HARM_CATEGORY_HARASSMENT",
  "HARM_CATEGORY_HATE_SPEECH",
  "HARM_CATEGORY_SEXUALLY_EXPLICIT",
  "HARM_CATEGORY_DANGEROUS_CONTENT",
  "HARM_CATEGORY_CIVIC_INTEGRITY",
] as const satisfies readonly HarmCategory[];
export type SupportedHarmCategory = (typeof SUPPORTED_HARM_CATEGORIES)[number];

export type HarmProbability =
  "HARM_PROBABILITY_UNSPECIFIED" | "NEGLIGIBLE" | "LOW" | "MEDIUM" | "HIGH";
export const HARM_PROBABILITIES = ["NEGLIGIBLE", "LOW", "MEDIUM", "HIGH"] as const;

export type HarmBlockThreshold =
  | "HARM_BLOCK_THRESHOLD_UNSPECIFIED"
  | "BLOCK_LOW_AND_ABOVE"
  | "BLOCK_MEDIUM_AND_ABOVE"
  | "BLOCK_ONLY_HIGH"
  | "BLOCK_NONE"
  | "OFF";

export type MediaResolution =
  | "MEDIA_RESOLUTION_UNSPECIFIED"
  | "MEDIA_RESOLUTION_LOW"
  | "MEDIA_RESOLUTION_MEDIUM"
  | "MEDIA_RESOLUTION_HIGH";

/** Modality as used in token counts. */
export type MediaModality =
  "MODALITY_UNSPECIFIED" | "TEXT" | "IMAGE" | "VIDEO" | "AUDIO" | "DOCUMENT";

export interface Blob {
  mimeType: string;
  /** base64 */
  data: string;
}

export interface FileData {
  mimeType?: string;
  fileUri: string;
}

export interface FunctionCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

export interface FunctionResponse {
  id?: string;
  name: string;
  response: Record<string, unknown>;
  /** Media the function returned. */
  parts?: FunctionResponsePart[];
  /** Live API: when the model takes the response in (no meaning in a unary call). */
  scheduling?: "SCHEDULING_UNSPECIFIED" | "SILENT" | "WHEN_IDLE" | "INTERRUPT";
  willContinue?: boolean;
}

export interface FunctionResponsePart {
  inlineData?: Blob;
  fileData?: FileData;
}

export interface ExecutableCode {
  language: string;
  code: string;
  id?: string;
}

export interface CodeExecutionResult {
  outcome: string;
  output?: string;
  id?: string;
}

/** A server-side tool's invocation (Gemini 3), sent back in history as the model gave it. */
export interface ToolCall {
  id?: string;
  toolType?: string;
  args?: Record<string, unknown>;
}

/** A server-side tool's result, sent back in history. */
export interface ToolResponse {
  id?: string;
  toolType?: string;
  response?: Record<string, unknown>;
}

/** The resolution one media part is read at (Gemini 3), overriding generationConfig's. */
export interface PartMediaResolution {
  level?: PartMediaResolutionLevel;
  numTokens?: number;
}

export type PartMediaResolutionLevel =
  | "MEDIA_RESOLUTION_UNSPECIFIED"
  | "MEDIA_RESOLUTION_LOW"
  | "MEDIA_RESOLUTION_MEDIUM"
  | "MEDIA_RESOLUTION_HIGH"
  | "MEDIA_RESOLUTION_ULTRA_HIGH";

export interface VideoMetadata {
  startOffset?: string;
  endOffset?: string;
  fps?: number;
}

export interface Part {
  text?: string;
  inlineData?: Blob;
  fileData?: FileData;
  functionCall?: FunctionCall;
  functionResponse?: FunctionResponse;
  executableCode?: ExecutableCode;
  codeExecutionResult?: CodeExecutionResult;
  toolCall?: ToolCall;
  toolResponse?: ToolResponse;
  thought?: boolean;
  thoughtSignature?: string;
  videoMetadata?: VideoMetadata;
  mediaResolution?: PartMediaResolution;
  /** The caller's own metadata, carried and never read. */
  partMetadata?: Record<string, unknown>;
  /** Output only (a transcription the service gave); accepted back in history, ignored. */
  audioTranscription?: unknown;
}

export interface Content {
  role?: string;
  parts: Part[];
}

/** OpenAPI-subset schema of responseSchema and function parameters. */
export interface Schema {
  type?: string;
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  maxItems?: string | number;
  minItems?: string | number;
  properties?: Record<string, Schema>;
  required?: string[];
  propertyOrdering?: string[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  anyOf?: Schema[];
  minLength?: string | number;
  maxLength?: string | number;
  pattern?: string;
  minProperties?: string | number;
  maxProperties?: string | number;
  example?: unknown;
  default?: unknown;
}

export interface FunctionDeclaration {
  name: string;
  description?: string;
  parameters?: Schema;
  parametersJsonSchema?: unknown;
  response?: Schema;
  responseJsonSchema?: unknown;
  behavior?: string;
}

export interface Tool {
  functionDeclarations?: FunctionDeclaration[];
  codeExecution?: Record<string, never>;
  googleSearch?: Record<string, unknown>;
  googleSearchRetrieval?: Record<string, unknown>;
  urlContext?: Record<string, never>;
  fileSearch?: { fileSearchStoreNames?: string[]; metadataFilter?: string; topK?: number };
  googleMaps?: Record<string, unknown>;
  computerUse?: Record<string, unknown>;
  mcpServers?: Record<string, unknown>[];
}

export type FunctionCallingMode = "MODE_UNSPECIFIED" | "AUTO" | "ANY" | "NONE" | "VALIDATED";

export interface ToolConfig {
  functionCallingConfig?: { mode?: FunctionCallingMode; allowedFunctionNames?: string[] };
  retrievalConfig?: { latLng?: { latitude?: number; longitude?: number }; languageCode?: string };
  includeServerSideToolInvocations?: boolean;
}

export interface SafetySetting {
  category: HarmCategory;
  threshold: HarmBlockThreshold;
  method?: string;
}

export interface PrebuiltVoiceConfig {
  voiceName?: string;
}
export interface VoiceConfig {
  prebuiltVoiceConfig?: PrebuiltVoiceConfig;
  /** A voice cloned from a sample (the engine speaks in its default voice). */
  replicatedVoiceConfig?: Record<string, unknown>;
}
export interface SpeakerVoiceConfig {
  speaker: string;
  voiceConfig: VoiceConfig;
}
export interface SpeechConfig {
  voiceConfig?: VoiceConfig;
  multiSpeakerVoiceConfig?: { speakerVoiceConfigs: SpeakerVoiceConfig[] };
  languageCode?: string;
}

export interface ThinkingConfig {
  includeThoughts?: boolean;
  thinkingBudget?: number;
  /** Gemini 3's coarse alternative to a budget. */
  thinkingLevel?: ThinkingLevel;
}

export type ThinkingLevel = "THINKING_LEVEL_UNSPECIFIED" | "MINIMAL" | "LOW" | "MEDIUM" | "HIGH";

export interface GenerationConfig {
  stopSequences?: string[];
  responseMimeType?: string;
  responseSchema?: Schema;
  responseJsonSchema?: unknown;
  responseModalities?: string[];
  candidateCount?: number;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseLogprobs?: boolean;
  logprobs?: number;
  enableEnhancedCivicAnswers?: boolean;
  speechConfig?: SpeechConfig;
  thinkingConfig?: ThinkingConfig;
  mediaResolution?: MediaResolution;
  /** Transcription of audio input (no transcript in the engine's answers). */
  audioTranscriptionConfig?: Record<string, unknown>;
  /** Generated images' aspect ratio and size. */
  imageConfig?: { aspectRatio?: string; imageSize?: string };
}

export interface GenerateContentRequest {
  /** `models/{id}`; present inside countTokens' generateContentRequest, else taken from the path. */
  model?: string;
  contents: Content[];
  tools?: Tool[];
  toolConfig?: ToolConfig;
  safetySettings?: SafetySetting[];
  systemInstruction?: Content;
  generationConfig?: GenerationConfig;
  cachedContent?: string;
  /** The capacity tier asked for; answers report it in usageMetadata.serviceTier. */
  serviceTier?: ServiceTier;
}

export type ServiceTier = "UNSPECIFIED" | "FLEX" | "STANDARD" | "PRIORITY";

export interface CountTokensRequest {
  contents?: Content[];
  generateContentRequest?: GenerateContentRequest;
}

export interface ModalityTokenCount {
  modality: MediaModality;
  tokenCount: number;
}

/** How countTokens splits one Content's count: per part, and its role token. */
export interface ContentTokenCount {
  partTokens?: number[];
  roleTokens?: number;
}

export interface CountTokensResponse {
  totalTokens: number;
  cachedContentTokenCount?: number;
  /** The system instruction's split (`{}` without one), as the service answers it. */
  systemInstructionsTokens?: ContentTokenCount;
  /** Each Content's split, in order. */
  contentTokens?: ContentTokenCount[];
  promptTokensDetails?: ModalityTokenCount[];
  cacheTokensDetails?: ModalityTokenCount[];
}

export interface SafetyRating {
  category: HarmCategory;
  probability: HarmProbability;
  probabilityScore?: number;
  blocked?: boolean;
}

export interface CitationSource {
  startIndex?: number;
  endIndex?: number;
  uri?: string;
  license?: string;
}

export interface LogprobsCandidate {
  token?: string;
  tokenId?: number;
  logProbability?: number;
}

export interface LogprobsResult {
  topCandidates?: { candidates?: LogprobsCandidate[] }[];
  chosenCandidates?: LogprobsCandidate[];
}

export interface GroundingChunk {
  web?: { uri?: string; title?: string };
  /** A retrieved document (the local engine's document set; Vertex's retrieval). */
  retrievedContext?: { uri?: string; title?: string; text?: string; fileSearchStore?: string };
}

export interface GroundingSupport {
  groundingChunkIndices?: number[];
  confidenceScores?: number[];
  segment?: { partIndex?: number; startIndex?: number; endIndex?: number; text?: string };
}

export interface GroundingMetadata {
  groundingChunks?: GroundingChunk[];
  groundingSupports?: GroundingSupport[];
  webSearchQueries?: string[];
  searchEntryPoint?: { renderedContent?: string; sdkBlob?: string };
  retrievalMetadata?: { googleSearchDynamicRetrievalScore?: number };
}

export interface UrlContextMetadata {
  urlMetadata?: { retrievedUrl?: string; urlRetrievalStatus?: string }[];
}

export type FinishReason =
  | "FINISH_REASON_UNSPECIFIED"
  | "STOP"
  | "MAX_TOKENS"
  | "SAFETY"
  | "RECITATION"
  | "LANGUAGE"
  | "OTHER"
  | "BLOCKLIST"
  | "PROHIBITED_CONTENT"
  | "SPII"
  | "MALFORMED_FUNCTION_CALL";

export interface Candidate {
  content?: Content;
  finishReason?: FinishReason;
  /** Why the candidate finished, in words ("Model generated function call(s)."). */
  finishMessage?: string;
  safetyRatings?: SafetyRating[];
  citationMetadata?: { citationSources?: CitationSource[] };
  tokenCount?: number;
  groundingMetadata?: GroundingMetadata;
  avgLogprobs?: number;
  logprobsResult?: LogprobsResult;
  urlContextMetadata?: UrlContextMetadata;
  index?: number;
}

export type BlockReason =
  | "BLOCK_REASON_UNSPECIFIED"
  | "SAFETY"
  | "OTHER"
  | "BLOCKLIST"
  | "PROHIBITED_CONTENT"
  | "IMAGE_SAFETY";

export interface PromptFeedback {
  blockReason?: BlockReason;
  safetyRatings?: SafetyRating[];
}

export interface UsageMetadata {
  promptTokenCount?: number;
  cachedContentTokenCount?: number;
  candidatesTokenCount?: number;
  toolUsePromptTokenCount?: number;
  thoughtsTokenCount?: number;
  totalTokenCount?: number;
  promptTokensDetails?: ModalityTokenCount[];
  cacheTokensDetails?: ModalityTokenCount[];
  candidatesTokensDetails?: ModalityTokenCount[];
  toolUsePromptTokensDetails?: ModalityTokenCount[];
  /** The tier that served the request, in lower case ("standard"). */
  serviceTier?: string;
}

export interface GenerateContentResponse {
  candidates?: Candidate[];
  promptFeedback?: PromptFeedback;
  usageMetadata?: UsageMetadata;
  modelVersion?: string;
  responseId?: string;
}

export interface Model {
  name: string;
  baseModelId?: string;
  version?: string;
  displayName?: string;
  description?: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  supportedGenerationMethods?: string[];
  temperature?: number;
  maxTemperature?: number;
  topP?: number;
  topK?: number;
  thinking?: boolean;
}

export interface ListModelsResponse {
  models: Model[];
  nextPageToken?: string;
}

export type FileState = "STATE_UNSPECIFIED" | "PROCESSING" | "ACTIVE" | "FAILED";

export interface File {
  name: string;
  displayName?: string;
  mimeType: string;
  /** int64 as a string */
  sizeBytes: string;
  createTime: string;
  updateTime: string;
  expirationTime: string;
  sha256Hash?: string;
  uri: string;
  state: FileState;
  source?: "UPLOADED" | "GENERATED";
  /** Generated files only (a batch's results): where `files.download` fetches the bytes. */
  downloadUri?: string;
  error?: { code: number; message: string };
  videoMetadata?: { videoDuration: string };
}

export interface ListFilesResponse {
  files?: File[];
  nextPageToken?: string;
}

export interface CachedContent {
  name: string;
  displayName: string;
  model: string;
  createTime: string;
  updateTime: string;
  expireTime: string;
  usageMetadata: { totalTokenCount: number };
}

export interface CachedContentCreate {
  model: string;
  displayName?: string;
  contents?: Content[];
  systemInstruction?: Content;
  tools?: Tool[];
  toolConfig?: ToolConfig;
  ttl?: string;
  expireTime?: string;
}

export interface CachedContentUpdate {
  ttl?: string;
  expireTime?: string;
  /** Sent back unchanged by some clients; any other model is refused (it cannot change). */
  model?: string;
}

export interface ListCachedContentsResponse {
  cachedContents?: CachedContent[];
  nextPageToken?: string;
}

/**
 * Batch mode (`models/{m}:batchGenerateContent`, `batches/{id}`). The wire shapes are the
 * service's as recorded and as the official SDKs read them (js-genai
 * `converters/_batches_converters.ts` `batchJobFromMldev`, python-genai `batches.py`): a
 * batch travels as a google.longrunning.Operation whose `metadata` is the batch.
 */
export const BATCH_STATES = [
  "BATCH_STATE_UNSPECIFIED",
  "BATCH_STATE_PENDING",
  "BATCH_STATE_RUNNING",
  "BATCH_STATE_SUCCEEDED",
  "BATCH_STATE_FAILED",
  "BATCH_STATE_CANCELLED",
  "BATCH_STATE_EXPIRED",
] as const;
export type BatchState = (typeof BATCH_STATES)[number];

/** google.rpc.Status as operations and per-request results carry it: `code` is the RPC code (3 = INVALID_ARGUMENT). */
export interface OperationStatus {
  code: number;
  message?: string;
}

/** One request of an inline batch: the GenerateContentRequest and the caller's own metadata. */
export interface InlinedRequest {
  request: GenerateContentRequest;
  metadata?: Record<string, unknown>;
}

/**
 * The body of `models/{m}:batchGenerateContent` in canonical form: the batch under `batch`,
 * camelCase, with exactly one input (`fileName` as `files/{id}`, or inline `requests`).
 */
export interface BatchGenerateContentRequest {
  batch: {
    /** `models/{id}` when the body repeats the path's model. */
    model?: string;
    displayName?: string;
    inputConfig: { fileName?: string; requests?: { requests: InlinedRequest[] } };
    /** int64; higher runs first. */
    priority?: number;
    /** Newer SDKs send it; the local engine calls nobody back. */
    webhookConfig?: unknown;
  };
}

export interface InlinedResponse {
  /** An embedding batch's results carry an EmbedContentResponse instead. */
  response?: GenerateContentResponse | EmbedContentResponse;
  error?: OperationStatus;
  metadata?: Record<string, unknown>;
}

export interface GenerateContentBatchOutput {
  /** `files/{id}` of the JSONL results (file input). */
  responsesFile?: string;
  /** The results in request order (inline input). */
  inlinedResponses?: { inlinedResponses: InlinedResponse[] };
}

/** int64 counts as strings; zero counts are left out. */
export interface BatchStats {
  requestCount: string;
  successfulRequestCount?: string;
  failedRequestCount?: string;
  pendingRequestCount?: string;
}

/** GenerateContentBatch, the operation's metadata, fields in the service's order. */
export interface GenerateContentBatch {
  "@type": string;
  model: string;
  displayName?: string;
  inputConfig?: { fileName: string };
  output?: GenerateContentBatchOutput;
  createTime: string;
  endTime?: string;
  /** Left out of embedding batches (as captured of the service). */
  updateTime?: string;
  batchStats: BatchStats;
  state: BatchState;
  /** int64 as a string; left out when 0. */
  priority?: string;
  name: string;
}

/** A batch as every batch operation answers it. `done` is left out until the batch ends. */
export interface BatchOperation {
  name: string;
  metadata: GenerateContentBatch;
  done?: true;
  response?: { "@type": string } & GenerateContentBatchOutput;
  error?: OperationStatus;
}

export interface ListBatchesResponse {
  operations?: BatchOperation[];
  nextPageToken?: string;
}
