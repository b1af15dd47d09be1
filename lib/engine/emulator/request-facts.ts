/**
 * What scenarios match on, read once from a canonical request: its operation and model, the
 * text of its last user turn and of all of it (each read on first use, in one walk), whether
 * it declares tools and which functions, and its headers. Knows the shapes of generation,
 * counting, caches and embeddings requests, and of the OpenAI-compatible chat completions
 * (`messages`, function `tools`) and embeddings (`input`); of any other it reads every `text`
 * it holds.
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

/** An OpenAI-compatible chat message: its content a string or a list of typed parts. */
interface ChatMessageLike {
  role?: string;
  content?: unknown;
}

interface RequestLike {
  contents?: ContentLike[];
  systemInstruction?: ContentLike;
  tools?: Array<{ functionDeclarations?: Array<{ name?: string }>; function?: { name?: string } }>;
  messages?: ChatMessageLike[];
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
  // Read before it is checked (a raw OpenAI or Interactions body): anything may be anything.
  for (const tool of Array.isArray(generation.tools) ? generation.tools : []) {
    if (!isObject(tool)) continue;
    const declarations = Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations : [];
    for (const declaration of declarations)
      if (isObject(declaration) && typeof declaration.name === "string")
        functionNames.add(declaration.name);
    // An OpenAI-compatible tool: `{type: "function", function: {name, ...}}`.
    if (isObject(tool.function) && typeof tool.function.name === "string")
      functionNames.add(tool.function.name);
  }
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
  if (Array.isArray(request.messages)) return lastUserMessageText(request.messages);
  if (typeof request.input === "string") return request.input;
  if (Array.isArray(request.input)) {
    const texts = request.input.filter((item): item is string => typeof item === "string");
    return texts.at(-1) ?? "";
  }
  return collectTexts(request).at(-1) ?? "";
}

/** The last OpenAI-compatible message of the user: its content, or its text parts joined. */
function lastUserMessageText(messages: readonly ChatMessageLike[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (!isObject(message) || message.role !== "user") continue;
    if (typeof message.content === "string") return message.content;
    return Array.isArray(message.content) ? collectTexts(message.content).join("\n") : "";
  }
  return "";
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
        else if (Array.isArray(item) && TEXT_KEYS.has(key)) {
          // A list of texts (an embeddings `input`) or of parts.
          for (let at = item.length - 1; at >= 0; at--) {
            const element: unknown = item[at];
            stack.push(typeof element === "string" ? new TextBox(element) : element);
          }
        } else if (typeof item === "object") stack.push(item);
      }
    }
  }
  return texts;
}

const TEXT_KEYS = new Set(["text", "input", "content"]);

class TextBox {
  constructor(readonly text: string) {}
}
