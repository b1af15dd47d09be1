/**
 * What a model cannot do at all, refused as the service refuses it: one plain message
 * (recorded word for word), before any field rule is looked at. In the service's order:
 * thinking on a model without it, logprobs (in a stream, then on a model without them),
 * a response modality combination the model lacks, a file URI the model cannot read.
 */
import { ApiError } from "../../api-error";
import type { ModelTraits } from "../../model-traits";
import type { Content, GenerateContentRequest, GenerationConfig } from "../../types";
import { fileNameOfUri } from "../reference-fields";
import { runSteps, type Steps } from "../../steps";

export interface CapabilityOptions {
  /** streamGenerateContent (logprobs are refused in a stream by models without them). */
  stream?: boolean;
  /** Whether a config without responseModalities is checked as a TEXT request. */
  modalitiesRequired: boolean;
}

/**
 * An http(s) URL that names no file of the API (a medium the service fetches itself), as
 * opposed to a file reference in any spelling (`fileNameOfUri`; the canonical request spells
 * those `files/{id}`).
 */
export function isExternalUri(uri: string): boolean {
  const text = uri.trim();
  // The raw text too: a files path the URL parser resolves away (`files/../..`) is a file
  // reference gone wrong (refused as one), not an outside medium.
  return /^https?:\/\//i.test(text) && fileNameOfUri(text) === null && !/\/files\//i.test(text);
}

/** Whether a thinking config asks for thinking (a zero budget without thoughts asks for none). */
export function asksForThinking(config: GenerationConfig): boolean {
  const thinking = config.thinkingConfig;
  if (!thinking) return false;
  return (
    thinking.includeThoughts === true ||
    (thinking.thinkingBudget !== undefined && thinking.thinkingBudget !== 0) ||
    thinking.thinkingLevel !== undefined
  );
}

function sameModalities(requested: readonly string[], supported: readonly string[]): boolean {
  const left = [...new Set(requested)].sort();
  const right = [...new Set(supported)].sort();
  return left.length === right.length && left.every((modality, index) => modality === right[index]);
}

/** The requested output modalities when they are not among the model's combinations. */
export function unsupportedModalities(
  config: GenerationConfig,
  traits: ModelTraits,
  modalitiesRequired: boolean,
): string[] | undefined {
  if (config.responseModalities === undefined && !modalitiesRequired) return undefined;
  const requested = config.responseModalities?.length ? config.responseModalities : ["TEXT"];
  return traits.responseModalities.some((combination) => sameModalities(requested, combination))
    ? undefined
    : requested;
}

function modalitiesMessage(traits: ModelTraits): string {
  if (traits.unsupportedModalities === "generic") return "Request contains an invalid argument.";
  const lines = traits.responseModalities.map((combination) => `* ${combination.join(", ")}\n`);
  return `The requested combination of response modalities is not supported by the model. ${traits.name} accepts the following combination of response modalities:\n${lines.join("")}`;
}

/**
 * A YouTube video's URL (`youtube.com/watch?v=`, `youtu.be/`, `youtube.com/shorts/`): the
 * service reads these on models that refuse other outside URLs (recorded: 2.0 Flash answering
 * for https://youtu.be/..., where it refuses a web page's URL).
 */
export function isYouTubeUri(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri.trim());
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase().replace(/^(?:www\.|m\.)/, "");
  if (host === "youtu.be") return url.pathname.length > 1;
  if (host !== "youtube.com") return false;
  return (
    (url.pathname === "/watch" && url.searchParams.has("v")) ||
    /^\/(?:shorts|embed|live)\/[^/]+/.test(url.pathname)
  );
}

function* externalUriOf(contents: readonly (Content | undefined)[]): Steps<string | undefined> {
  for (const content of contents)
    for (const part of content?.parts ?? []) {
      const uri = part.fileData?.fileUri;
      if (uri !== undefined && isExternalUri(uri) && !isYouTubeUri(uri)) return uri;
      yield;
    }
  return undefined;
}

/** The service's refusal of what `traits`' model cannot do, or undefined. */
export function capabilityRefusal(
  request: GenerateContentRequest,
  traits: ModelTraits,
  options: CapabilityOptions,
): ApiError | undefined {
  return runSteps(capabilityRefusalSteps(request, traits, options));
}

/** capabilityRefusal, one part at a time. */
export function* capabilityRefusalSteps(
  request: GenerateContentRequest,
  traits: ModelTraits,
  options: CapabilityOptions,
): Steps<ApiError | undefined> {
  const config = request.generationConfig ?? {};
  if (!traits.thinking && asksForThinking(config))
    return ApiError.invalidArgument("Thinking is not enabled for this model");
  if (config.responseLogprobs === true && !traits.logprobs) {
    return ApiError.invalidArgument(
      options.stream
        ? "LogProbs is not supported in streaming mode"
        : "Logprobs is not enabled for this model",
    );
  }
  if (unsupportedModalities(config, traits, options.modalitiesRequired))
    return ApiError.invalidArgument(modalitiesMessage(traits));
  if (!traits.externalFileUris) {
    const uri = yield* externalUriOf([request.systemInstruction, ...request.contents]);
    if (uri !== undefined)
      return ApiError.invalidArgument(`Invalid or unsupported file uri: ${uri}`);
  }
  return undefined;
}
