/**
 * What scenarios match on, read once from a canonical request: its operation and model, the
 * text of its last user turn and of all of it (each read on first use, in one walk), whether
 * it declares tools and which functions, and its headers. Knows the shapes of generation,
 * counting, caches and embeddings requests; of any other it reads every `text` it holds.
 */

export interface RequestFacts {
  operation: string;
  /** The model without `models/`, when the request names one. */
  model?: string;
  lastUserText(): string;
  allText(): string;
  hasTools: boolean;
  functionNames: ReadonlySet<string>;
  /** A request header's value (name in lower case), or null. */
  header(name: string): string | null;
}

interface ContentLike {
  role?: string;
  parts?: Array<{ text?: unknown }>;
}

interface RequestLike {
  contents?: ContentLike[];
  systemInstruction?: ContentLike;
  tools?: Array<{ functionDeclarations?: Array<{ name?: string }> }>;
  generateContentRequest?: RequestLike;
  content?: ContentLike;
  requests?: RequestLike[];
  input?: unknown;
}

export function readRequestFacts(options: {
  operation: string;
  model?: string;
  request?: unknown;
  headers?: Headers | null;
}): RequestFacts {
  const request = (isObject(options.request) ? options.request : {}) as RequestLike;
  const generation = request.generateContentRequest ?? request;
  const functionNames = new Set<string>();
  for (const tool of generation.tools ?? [])
    for (const declaration of tool.functionDeclarations ?? [])
      if (typeof declaration.name === "string") functionNames.add(declaration.name);
  let lastUser: string | undefined;
  let all: string | undefined;
  const headers = options.headers ?? null;
  return {
    operation: options.operation,
    ...(options.model ? { model: options.model.replace(/^models\//, "") } : {}),
    lastUserText: () => (lastUser ??= lastUserTurnText(request)),
    allText: () => (all ??= collectTexts(request).join("\n")),
    hasTools: (generation.tools?.length ?? 0) > 0,
    functionNames,
    header: (name) => headers?.get(name) ?? null,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function partsText(content: ContentLike | undefined): string {
  return (content?.parts ?? [])
    .map((part) => (typeof part.text === "string" ? part.text : ""))
    .filter(Boolean)
    .join("\n");
}

/** The last turn a person wrote: the last content not of the model (its texts joined). */
function lastUserTurnText(request: RequestLike): string {
  const generation = request.generateContentRequest ?? request;
  const contents = generation.contents;
  if (Array.isArray(contents)) {
    for (let index = contents.length - 1; index >= 0; index--) {
      const content = contents[index]!;
      if (content.role !== "model") return partsText(content);
    }
    return "";
  }
  if (generation.content) return partsText(generation.content);
  if (typeof request.input === "string") return request.input;
  return collectTexts(request).at(-1) ?? "";
}

/** Every `text` string (and a string `input` or `content`) in document order: one walk, linear in the request. */
function collectTexts(root: unknown): string[] {
  const texts: string[] = [];
  // Found strings are pushed as boxes so they come off the stack in document order too.
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value instanceof TextBox) texts.push(value.text);
    else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push(value[index]);
    } else if (isObject(value)) {
      const entries = Object.entries(value);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, item] = entries[index]!;
        if (typeof item === "string" && TEXT_KEYS.has(key)) stack.push(new TextBox(item));
        else if (typeof item === "object") stack.push(item);
      }
    }
  }
  return texts;
}

const TEXT_KEYS = new Set(["text", "input", "content"]);

class TextBox {
  constructor(readonly text: string) {}
}
