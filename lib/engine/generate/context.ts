/**
 * The request's context as the language model sees it (issue 3 §2–3): system instruction,
 * history, cached content (already merged in front), function calls and responses, and what
 * the engine knows of every medium (type, size, dimensions, duration, pages, the text of text
 * files). Only the most recent MAX_CONTEXT_CHARACTERS are learned from per request, so a
 * huge context costs bounded time; the whole prompt is still counted and safety-rated.
 */
import { probeMedia } from "@/lib/engine/media/probe";
import type { Content, GenerateContentRequest, Part } from "@/lib/gemini/types";

export const MAX_CONTEXT_CHARACTERS = 48_000;

export interface ResolvedFile {
  mimeType: string;
  displayName?: string;
  /** What the media probe learned (ProbedMedia); read by duck typing. */
  probed?: unknown;
}

export type ResolveFile = (fileUri: string) => Promise<ResolvedFile>;

/** The input a cached content holds, by name; throws (the service's 403) when the caller may not read it. */
export type ResolveCachedContent = (
  name: string,
) => Promise<Pick<GenerateContentRequest, "contents" | "systemInstruction">>;

export interface RequestContext {
  /** Context documents, oldest first, each a block of text the model learns from. */
  documents: string[];
  /** Everything the prompt says, for the safety classifier. */
  promptText: string;
  /** The text of the last user turn. */
  lastUserText: string;
  /** Whether the last turn answers a function call. */
  answersFunction: boolean;
}

function textOfPart(part: Part): string[] {
  const texts: string[] = [];
  if (part.text !== undefined && !part.thought) texts.push(part.text);
  if (part.functionCall) texts.push(`${part.functionCall.name} ${flatten(part.functionCall.args)}`);
  if (part.functionResponse)
    texts.push(`${part.functionResponse.name}: ${flatten(part.functionResponse.response)}`);
  if (part.executableCode) texts.push(part.executableCode.code);
  if (part.codeExecutionResult?.output) texts.push(part.codeExecutionResult.output);
  if (part.toolCall) texts.push(flatten(part.toolCall.args));
  if (part.toolResponse) texts.push(flatten(part.toolResponse.response));
  return texts;
}

/** The values of a JSON object as prose-like text ("city Paris temperature 21"). */
function flatten(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map(flatten).join(", ");
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => `${key.replace(/[_-]+/g, " ")} ${flatten(inner)}`)
      .join(", ");
  }
  return "";
}

function formatBytes(size: number): string {
  if (size < 1024) return `${size} bytes`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

/** Whether a MIME type is text the engine reads as such (text/*, JSON, XML, code, CSV, YAML, Markdown). */
export function isTextual(mimeType: string): boolean {
  return (
    /^text\//.test(mimeType) ||
    /json|xml|javascript|csv|yaml|markdown|x-python|typescript/.test(mimeType)
  );
}

function kindOf(mimeType: string): string {
  if (mimeType.startsWith("image/")) return "image";
  if (mimeType.startsWith("audio/")) return "audio";
  if (mimeType.startsWith("video/")) return "video";
  if (mimeType === "application/pdf") return "document";
  if (isTextual(mimeType)) return "text file";
  return "file";
}

/** One sentence about a medium from whatever facts are known. */
export function describeMedium(
  mimeType: string,
  facts: Record<string, unknown>,
  name?: string,
): string {
  const details: string[] = [mimeType];
  const number = (key: string): number | undefined =>
    typeof facts[key] === "number" ? (facts[key] as number) : undefined;
  const size = number("sizeBytes") ?? number("size");
  if (size !== undefined) details.push(formatBytes(size));
  const width = number("width");
  const height = number("height");
  if (width && height) details.push(`${width}x${height} pixels`);
  const duration = number("durationSeconds") ?? number("duration");
  if (duration !== undefined) details.push(`${duration.toFixed(1)} seconds long`);
  const pages = number("pages") ?? number("pageCount");
  if (pages !== undefined) details.push(`${pages} page${pages === 1 ? "" : "s"}`);
  return `The ${kindOf(mimeType)}${name ? ` ${name}` : ""} is ${details.join(", ")}.`;
}

/**
 * What a part says in words: its text (not a thought summary), textual inline data, or the
 * text of a text file; undefined for media, calls and files the caller cannot read.
 */
export async function readableText(
  part: Part,
  resolveFile: ResolveFile,
): Promise<string | undefined> {
  if (part.text !== undefined) return part.thought ? undefined : part.text;
  if (part.inlineData && isTextual(part.inlineData.mimeType))
    return Buffer.from(part.inlineData.data, "base64").toString("utf8");
  if (part.fileData) {
    try {
      return probedText((await resolveFile(part.fileData.fileUri)).probed);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function probedText(probed: unknown): string | undefined {
  if (typeof probed !== "object" || probed === null) return undefined;
  const record = probed as Record<string, unknown>;
  for (const key of ["text", "textContent", "textPreview"])
    if (typeof record[key] === "string") return record[key] as string;
  return undefined;
}

async function mediaTexts(part: Part, resolveFile: ResolveFile): Promise<string[]> {
  if (part.inlineData) {
    const bytes = Buffer.from(part.inlineData.data, "base64");
    const mimeType = part.inlineData.mimeType;
    let facts: Record<string, unknown> = { sizeBytes: bytes.length };
    try {
      facts = { ...(await probeMedia({ bytes }, mimeType)) };
    } catch {
      // Unusable media are refused by token counting with the service's error; here they are described by type and size.
    }
    const texts = [describeMedium(mimeType, facts)];
    const text = probedText(facts) ?? (isTextual(mimeType) ? bytes.toString("utf8") : undefined);
    if (text) texts.push(text);
    return texts;
  }
  if (part.fileData) {
    const file = await resolveFile(part.fileData.fileUri);
    const facts =
      typeof file.probed === "object" && file.probed !== null
        ? (file.probed as Record<string, unknown>)
        : {};
    const texts = [describeMedium(file.mimeType, facts, file.displayName)];
    const text = probedText(file.probed);
    if (text) texts.push(text);
    return texts;
  }
  return [];
}

/** Gathers the context of a (validated, cache-merged) request. */
export async function gatherContext(
  request: GenerateContentRequest,
  resolveFile: ResolveFile,
): Promise<RequestContext> {
  const documents: string[] = [];
  const prompt: string[] = [];
  const system = request.systemInstruction?.parts.flatMap(textOfPart).join("\n") ?? "";
  if (system.trim()) {
    documents.push(system);
    prompt.push(system);
  }
  let lastUserText = "";
  let answersFunction = false;
  const contents: Content[] = request.contents;
  for (const [index, content] of contents.entries()) {
    const texts: string[] = [];
    for (const part of content.parts) {
      texts.push(...textOfPart(part));
      texts.push(...(await mediaTexts(part, resolveFile)));
    }
    const text = texts.filter((entry) => entry.trim()).join("\n");
    if (text) {
      documents.push(text);
      prompt.push(text);
    }
    if (index === contents.length - 1) {
      answersFunction = content.parts.some((part) => part.functionResponse !== undefined);
      if (content.role !== "model")
        lastUserText = content.parts.map((part) => part.text ?? "").join("\n");
    }
  }
  return {
    documents: trimToBudget(documents, MAX_CONTEXT_CHARACTERS),
    promptText: prompt.join("\n"),
    lastUserText,
    answersFunction,
  };
}

/** Keeps the most recent documents within the budget (the oldest kept one is cut at its end). */
function trimToBudget(documents: string[], budget: number): string[] {
  const kept: string[] = [];
  let remaining = budget;
  for (let index = documents.length - 1; index >= 0 && remaining > 0; index--) {
    const document = documents[index]!;
    kept.unshift(
      document.length <= remaining ? document : document.slice(document.length - remaining),
    );
    remaining -= document.length;
  }
  return kept;
}
