/**
 * The built-in tools of the local engine (code execution, Google Search grounding, URL
 * context, file search), emulated offline: given the request, the one that applies answers the turn with
 * its parts, its text and its metadata; generation then streams that text as the answer. Only
 * tools the model supports (its catalog traits) and the request enables are used. A turn that
 * answers a function call, or asks for JSON, enum or audio, is left to generation.
 */
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type {
  GenerateContentRequest,
  GroundingMetadata,
  Part,
  UrlContextMetadata,
} from "@/lib/gemini/types";
import { answerWithCode } from "./code-execution";
import { answerFromStores, type ResolveFileSearchStores } from "./file-search";
import { answerFromDocuments } from "./grounding";
import { retrieveUrls, type UrlResolvers } from "./url-context";

export type BuiltInTool = "googleSearch" | "urlContext" | "codeExecution" | "fileSearch";

/** What the tools read for the caller: files and caches (URL context), file search stores. */
export interface ToolResolvers extends UrlResolvers {
  resolveFileSearchStores?: ResolveFileSearchStores;
}

export interface ToolAnswer {
  /** Parts before the answer text (executableCode, codeExecutionResult). */
  parts: Part[];
  /** The answer's text, streamed as the model's. */
  text?: string;
  groundingMetadata?: GroundingMetadata;
  urlContextMetadata?: UrlContextMetadata;
  /** What a retrieval put before the model, counted as usage's toolUsePromptTokenCount. */
  toolUseTexts?: string[];
}

/** The built-in tools a request turns on (and the model supports). */
export function enabledTools(
  request: GenerateContentRequest,
  traits: ModelTraits,
): Set<BuiltInTool> {
  const supported = new Set(traits.builtInTools ?? []);
  const enabled = new Set<BuiltInTool>();
  for (const tool of request.tools ?? []) {
    if (tool.codeExecution && supported.has("codeExecution")) enabled.add("codeExecution");
    if ((tool.googleSearch || tool.googleSearchRetrieval) && supported.has("googleSearch"))
      enabled.add("googleSearch");
    if (tool.urlContext && supported.has("urlContext")) enabled.add("urlContext");
    // File search came with 2.5, as URL context did: the catalog's URL context trait stands for both.
    if (tool.fileSearch?.fileSearchStoreNames?.length && supported.has("urlContext"))
      enabled.add("fileSearch");
  }
  return enabled;
}

/** The answer of the built-in tools to this turn, or null when none applies. */
export async function answerWithTools(
  request: GenerateContentRequest,
  traits: ModelTraits,
  turn: { lastUserText: string; answersFunction: boolean },
  resolvers: ToolResolvers,
  signal: AbortSignal,
): Promise<ToolAnswer | null> {
  const enabled = enabledTools(request, traits);
  const config = request.generationConfig ?? {};
  if (
    enabled.size === 0 ||
    turn.answersFunction ||
    config.responseMimeType === "application/json" ||
    config.responseMimeType === "text/x.enum"
  )
    return null;
  const answer: ToolAnswer = { parts: [] };
  if (enabled.has("fileSearch") && resolvers.resolveFileSearchStores) {
    const fileSearch = request.tools?.find((tool) => tool.fileSearch)?.fileSearch;
    const names = (request.tools ?? []).flatMap(
      (tool) => tool.fileSearch?.fileSearchStoreNames ?? [],
    );
    const found = answerFromStores(
      turn.lastUserText,
      await resolvers.resolveFileSearchStores(names),
      fileSearch?.topK,
    );
    if (found) {
      answer.text = found.text;
      answer.groundingMetadata = found.groundingMetadata;
      answer.toolUseTexts = found.retrievedTexts;
    }
  }
  if (answer.text === undefined && enabled.has("urlContext")) {
    const retrieved = await retrieveUrls(turn.lastUserText, resolvers);
    if (retrieved) {
      answer.urlContextMetadata = retrieved.urlContextMetadata;
      answer.text = retrieved.text;
    }
  }
  if (answer.text === undefined && enabled.has("codeExecution")) {
    const executed = await answerWithCode(turn.lastUserText, { signal });
    if (executed) {
      answer.parts.push(
        { executableCode: { language: "PYTHON", code: executed.code } },
        {
          codeExecutionResult: {
            outcome: executed.result.outcome,
            ...(executed.result.output ? { output: executed.result.output } : {}),
          },
        },
      );
      answer.text = executed.text;
    }
  }
  if (answer.text === undefined && enabled.has("googleSearch")) {
    const grounded = answerFromDocuments(turn.lastUserText);
    if (grounded) {
      answer.text = grounded.text;
      answer.groundingMetadata = grounded.groundingMetadata;
    }
  }
  return answer.parts.length || answer.text !== undefined || answer.urlContextMetadata
    ? answer
    : null;
}
