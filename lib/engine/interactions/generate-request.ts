/**
 * An interaction as the generation core's request: the conversation (the stored turns of the
 * interactions it continues, then its own input steps) as contents, and its settings as
 * generateContent's. Steps map to the parts the service would put in history: user input and
 * function results as user turns, model output, thought signatures, function calls and code
 * execution as model turns. The search, URL-context, file-search and maps steps a client sends
 * back are the service's own record of its tool use: they carry nothing the model reads again,
 * so they are left out. As the service does, a continued interaction inherits only the
 * conversation: system instruction, tools and settings are the new request's.
 */
import type {
  InteractionContent,
  InteractionCreate,
  MediaContent,
  Step,
} from "@/lib/gemini/interactions/types";
import type { ThinkingTraits } from "@/lib/gemini/model-traits";
import { fileNameOfUri } from "@/lib/gemini/references";
import { copyMember } from "@/lib/runtime/pieced-text";
import type {
  Content,
  FunctionResponse,
  GenerateContentRequest,
  GenerationConfig,
  HarmBlockThreshold,
  HarmCategory,
  Part,
  PartMediaResolutionLevel,
  Tool,
  ToolConfig,
} from "@/lib/gemini/types";

const RESOLUTIONS: Record<string, PartMediaResolutionLevel> = {
  low: "MEDIA_RESOLUTION_LOW",
  medium: "MEDIA_RESOLUTION_MEDIUM",
  high: "MEDIA_RESOLUTION_HIGH",
  ultra_high: "MEDIA_RESOLUTION_ULTRA_HIGH",
};

/** One content item as a part of a generate request. */
export function contentPart(content: InteractionContent): Part {
  if (content.type === "text") return { text: content.text };
  const part: Part =
    content.data !== undefined
      ? { inlineData: inlineData(content) }
      : {
          fileData: {
            // A file of the API in any spelling reads as its name, as in a generate request.
            fileUri: fileNameOfUri(content.uri ?? "") ?? content.uri ?? "",
            ...(content.mime_type ? { mimeType: content.mime_type } : {}),
          },
        };
  const level = content.resolution ? RESOLUTIONS[content.resolution] : undefined;
  if (level) part.mediaResolution = { level };
  return part;
}

/** A content item's media as inline data, its data copied as its pieces when it is pieced text. */
function inlineData(content: MediaContent): NonNullable<Part["inlineData"]> {
  const blob = { mimeType: content.mime_type ?? "", data: "" };
  copyMember(content, "data", blob, "data");
  return blob;
}

/** A function's result as functionResponse: an object as it is, text as `{result}`, media as parts. */
function functionResponse(
  step: Extract<Step, { type: "function_result" }>,
  name: string,
): FunctionResponse {
  const { result } = step;
  if (typeof result === "string") return { id: step.call_id, name, response: { result } };
  if (!Array.isArray(result)) return { id: step.call_id, name, response: result };
  const text = result.flatMap((item) => (item.type === "text" ? [item.text] : [])).join("");
  const parts = result.flatMap((item) => {
    if (item.type === "text") return [];
    const part = contentPart(item);
    return [part.inlineData ? { inlineData: part.inlineData } : { fileData: part.fileData! }];
  });
  return {
    id: step.call_id,
    name,
    response: text ? { result: text } : {},
    ...(parts.length ? { parts } : {}),
  };
}

/**
 * Steps as contents, consecutive parts of one role in one content. `calls` holds the names of
 * function calls made earlier in the conversation, by id (a result may leave its name out);
 * the calls of these steps are added to it.
 */
export function stepsToContents(steps: readonly Step[], calls: Map<string, string>): Content[] {
  const contents: Content[] = [];
  let signature: string | undefined;
  const add = (role: "user" | "model", part: Part) => {
    if (role === "model" && signature !== undefined) {
      part.thoughtSignature = signature;
      signature = undefined;
    }
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(part);
    else contents.push({ role, parts: [part] });
  };
  for (const step of steps) {
    switch (step.type) {
      case "user_input":
        for (const content of step.content ?? []) add("user", contentPart(content));
        break;
      case "model_output":
        for (const content of step.content ?? []) add("model", contentPart(content));
        break;
      case "thought":
        for (const summary of step.summary ?? [])
          if (summary.type === "text") add("model", { text: summary.text, thought: true });
        if (step.signature) signature = step.signature;
        break;
      case "function_call":
        calls.set(step.id, step.name);
        if (step.signature) signature = step.signature;
        add("model", { functionCall: { id: step.id, name: step.name, args: step.arguments } });
        break;
      case "function_result":
        add("user", {
          functionResponse: functionResponse(
            step,
            step.name ?? calls.get(step.call_id) ?? step.call_id,
          ),
        });
        break;
      case "code_execution_call":
        add("model", {
          executableCode: {
            language: String(step.arguments.language ?? "PYTHON").toUpperCase(),
            code: String(step.arguments.code ?? ""),
          },
        });
        break;
      case "code_execution_result":
        add("model", {
          codeExecutionResult: {
            outcome: step.is_error ? "OUTCOME_FAILED" : "OUTCOME_OK",
            output: typeof step.result === "string" ? step.result : JSON.stringify(step.result),
          },
        });
        break;
    }
  }
  // A signature with nothing after it in its turn stays with the thinking it stands for.
  if (signature !== undefined) add("model", { text: "" });
  return contents;
}

const CATEGORIES: Record<string, HarmCategory> = {
  hate_speech: "HARM_CATEGORY_HATE_SPEECH",
  dangerous_content: "HARM_CATEGORY_DANGEROUS_CONTENT",
  harassment: "HARM_CATEGORY_HARASSMENT",
  sexually_explicit: "HARM_CATEGORY_SEXUALLY_EXPLICIT",
  civic_integrity: "HARM_CATEGORY_CIVIC_INTEGRITY",
};

/**
 * The thinking budget a level stands for: the engine's thinking (generate/thinking-length)
 * reads budgets, and 2.5 models take no level, while the service's Interactions API takes a
 * level for them too (recorded: 2.5 Flash `low` thought about 210 tokens, `minimal` 7).
 * Clamped into the model's range.
 */
const LEVEL_BUDGETS = { minimal: 128, low: 1_024, medium: 8_192, high: -1 } as const;

function thinkingBudget(level: keyof typeof LEVEL_BUDGETS, thinking: ThinkingTraits): number {
  const budget = LEVEL_BUDGETS[level];
  return budget < 0 ? budget : Math.min(thinking.maxBudget, Math.max(thinking.minBudget, budget));
}

function generationConfig(
  create: InteractionCreate,
  thinking: ThinkingTraits | undefined,
): GenerationConfig | undefined {
  const given = create.generation_config ?? {};
  const format = create.response_format;
  const config: GenerationConfig = {};
  if (given.temperature !== undefined) config.temperature = given.temperature;
  if (given.top_p !== undefined) config.topP = given.top_p;
  if (given.seed !== undefined) config.seed = given.seed;
  if (given.stop_sequences !== undefined) config.stopSequences = given.stop_sequences;
  if (given.max_output_tokens !== undefined) config.maxOutputTokens = given.max_output_tokens;
  const level = given.thinking_level;
  if (level !== undefined || given.thinking_summaries === "auto") {
    config.thinkingConfig = {
      // A model without thinking is asked for a level as it is, and refuses it as generateContent does.
      ...(level && thinking ? { thinkingBudget: thinkingBudget(level, thinking) } : {}),
      ...(level && !thinking ? { thinkingLevel: level.toUpperCase() as "LOW" } : {}),
      ...(given.thinking_summaries === "auto" ? { includeThoughts: true } : {}),
    };
  }
  if (format?.mime_type !== undefined) config.responseMimeType = format.mime_type;
  if (format?.schema !== undefined) config.responseJsonSchema = format.schema;
  if (format?.modalities?.some((modality) => modality !== "text"))
    config.responseModalities = format.modalities.map((modality) => modality.toUpperCase());
  const voice = given.speech?.[0]?.voice;
  if (given.speech?.length === 1 && voice)
    config.speechConfig = {
      voiceConfig: { prebuiltVoiceConfig: { voiceName: voice } },
      ...(given.speech[0]!.language ? { languageCode: given.speech[0]!.language } : {}),
    };
  else if (given.speech && given.speech.length > 1)
    config.speechConfig = {
      multiSpeakerVoiceConfig: {
        speakerVoiceConfigs: given.speech.map((speaker) => ({
          speaker: speaker.speaker ?? "",
          voiceConfig: { prebuiltVoiceConfig: { voiceName: speaker.voice ?? "" } },
        })),
      },
    };
  if (given.image_config)
    config.imageConfig = {
      ...(given.image_config.aspect_ratio ? { aspectRatio: given.image_config.aspect_ratio } : {}),
      ...(given.image_config.image_size ? { imageSize: given.image_config.image_size } : {}),
    };
  return Object.keys(config).length ? config : undefined;
}

const BUILT_IN: Record<string, (options: Record<string, unknown>) => Tool> = {
  google_search: () => ({ googleSearch: {} }),
  code_execution: () => ({ codeExecution: {} }),
  url_context: () => ({ urlContext: {} }),
  google_maps: () => ({ googleMaps: {} }),
  file_search: (options) => ({
    fileSearch: {
      ...(Array.isArray(options.file_search_store_names)
        ? { fileSearchStoreNames: options.file_search_store_names as string[] }
        : {}),
      ...(typeof options.metadata_filter === "string"
        ? { metadataFilter: options.metadata_filter }
        : {}),
      ...(typeof options.top_k === "number" ? { topK: options.top_k } : {}),
    },
  }),
};

function tools(create: InteractionCreate): { tools?: Tool[]; toolConfig?: ToolConfig } {
  const functions = (create.tools ?? []).flatMap((tool) =>
    tool.type === "function"
      ? [
          {
            name: tool.function.name,
            ...(tool.function.description !== undefined
              ? { description: tool.function.description }
              : {}),
            ...(tool.function.parameters !== undefined
              ? { parametersJsonSchema: tool.function.parameters }
              : {}),
          },
        ]
      : [],
  );
  const builtIn = (create.tools ?? []).flatMap((tool) =>
    tool.type === "function" ? [] : [BUILT_IN[tool.type]!(tool.options)],
  );
  const list = [...(functions.length ? [{ functionDeclarations: functions }] : []), ...builtIn];
  const choice = create.generation_config?.tool_choice;
  return {
    ...(list.length ? { tools: list } : {}),
    ...(choice
      ? {
          toolConfig: {
            functionCallingConfig: {
              mode: choice.mode.toUpperCase() as "AUTO",
              ...(choice.allowed ? { allowedFunctionNames: choice.allowed } : {}),
            },
          },
        }
      : {}),
  };
}

/**
 * The generate request for `create` over `contents`: the conversation it continues followed
 * by its own input (`stepsToContents`).
 */
export function generateRequest(
  create: InteractionCreate,
  contents: Content[],
  thinking: ThinkingTraits | undefined,
): GenerateContentRequest {
  const config = generationConfig(create, thinking);
  return {
    contents,
    ...(create.system_instruction !== undefined
      ? { systemInstruction: { parts: [{ text: create.system_instruction }] } }
      : {}),
    ...(config ? { generationConfig: config } : {}),
    ...tools(create),
    ...(create.cached_content !== undefined ? { cachedContent: create.cached_content } : {}),
    ...(create.safety_settings
      ? {
          safetySettings: create.safety_settings.map((setting) => ({
            category:
              CATEGORIES[setting.category] ?? (setting.category.toUpperCase() as HarmCategory),
            threshold: setting.threshold.toUpperCase() as HarmBlockThreshold,
          })),
        }
      : {}),
  };
}
