/**
 * "Get code": the request the chat sends, written as curl, Python (google-genai), JavaScript
 * (@google/genai) and the raw REST body. Every snippet sends exactly the studio's
 * GenerateContentRequest to `:streamGenerateContent?alt=sse` (the SDKs' config is that request
 * without `contents`, as both SDKs map it back field for field). The key is read from the
 * environment variable `GEMINI_API_KEY`; pointed at this studio, a snippet names the person's
 * key it expects there, and only right after that key was made (its one showing) sets the
 * variable to it. Never a session. Pure and safe in the browser.
 */
import type { Content, GenerateContentRequest } from "@/lib/gemini/types";

/** Where the snippet points: this studio (its origin) or the public service. */
export type CodeTarget = { kind: "studio"; origin: string } | { kind: "service" };

export const SERVICE_ORIGIN = "https://generativelanguage.googleapis.com";
/** The environment variable every snippet reads the key from. */
export const KEY_VARIABLE = "GEMINI_API_KEY";

/** The studio key a snippet for this studio uses: named, and its secret only when just made. */
export interface CodeKey {
  name: string;
  /** The key's first characters (`gsk_Ab12Cd`), to tell it apart. */
  prefix: string;
  /** The whole key, known only in the moment it was made. */
  secret?: string;
}

export interface CodeInput {
  /** Model id or resource name. */
  model: string;
  request: GenerateContentRequest;
  target: CodeTarget;
  /** The studio key (only for the studio target). */
  key?: CodeKey;
}

/** The lines that open a snippet: which key it expects, or the variable set to a key just made. */
function keyLines(input: CodeInput, language: "shell" | "python" | "javascript"): string[] {
  const key = input.target.kind === "studio" ? input.key : undefined;
  if (!key) return [];
  const comment = language === "javascript" ? "//" : "#";
  if (key.secret === undefined)
    return [
      `${comment} ${KEY_VARIABLE}: your studio key ${JSON.stringify(key.name)} (${key.prefix}…)`,
    ];
  const literal = JSON.stringify(key.secret);
  const set = {
    shell: `export ${KEY_VARIABLE}='${key.secret}'`,
    python: `os.environ[${JSON.stringify(KEY_VARIABLE)}] = ${literal}`,
    javascript: `process.env.${KEY_VARIABLE} = ${literal};`,
  }[language];
  return [`${comment} Your new studio key ${JSON.stringify(key.name)}: keep it secret.`, set];
}

export type CodeLanguage = "curl" | "python" | "javascript" | "rest";

export const CODE_LANGUAGES: { language: CodeLanguage; label: string; fence: string }[] = [
  { language: "curl", label: "curl", fence: "bash" },
  { language: "python", label: "Python", fence: "python" },
  { language: "javascript", label: "JavaScript", fence: "javascript" },
  { language: "rest", label: "REST JSON", fence: "json" },
];

function modelId(model: string): string {
  return model.replace(/^models\//, "");
}

function origin(target: CodeTarget): string {
  return target.kind === "studio" ? target.origin.replace(/\/+$/, "") : SERVICE_ORIGIN;
}

/** The URL the studio posts the turn to (the same path on the service). */
export function streamUrl(input: CodeInput): string {
  return `${origin(input.target)}/v1beta/models/${encodeURIComponent(modelId(input.model))}:streamGenerateContent?alt=sse`;
}

/** The request's fields other than contents and model: the SDKs' `config`, flattened as they expect it. */
export function sdkConfig(request: GenerateContentRequest): Record<string, unknown> {
  const { contents: _contents, generationConfig, ...rest } = request;
  return { ...(generationConfig ?? {}), ...rest };
}

export function restSnippet(input: CodeInput): string {
  const key = input.target.kind === "studio" ? input.key?.secret : undefined;
  return `POST ${streamUrl(input)}\nx-goog-api-key: ${key ?? `$${KEY_VARIABLE}`}\nContent-Type: application/json\n\n${JSON.stringify(input.request, null, 2)}\n`;
}

export function curlSnippet(input: CodeInput): string {
  // A quoted here-document passes the body byte for byte: no shell quoting of the JSON, and no
  // JSON line can be the bare delimiter (every line is indented or a brace).
  return [
    ...keyLines(input, "shell"),
    `curl -sS -N "${streamUrl(input)}" \\`,
    `  -H "x-goog-api-key: $${KEY_VARIABLE}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  --data-binary @- <<'JSON'`,
    JSON.stringify(input.request, null, 2),
    "JSON",
    "",
  ].join("\n");
}

export function javascriptSnippet(input: CodeInput): string {
  const httpOptions =
    input.target.kind === "studio"
      ? `{ baseUrl: ${JSON.stringify(origin(input.target))}, apiVersion: "v1beta" }`
      : `{ apiVersion: "v1beta" }`;
  const config = sdkConfig(input.request);
  const parameters = [
    `  model: ${JSON.stringify(modelId(input.model))},`,
    `  contents: ${indentAfterFirstLine(JSON.stringify(input.request.contents, null, 2), "  ")},`,
  ];
  if (Object.keys(config).length > 0)
    parameters.push(`  config: ${indentAfterFirstLine(JSON.stringify(config, null, 2), "  ")},`);
  return [
    `import { GoogleGenAI } from "@google/genai";`,
    ``,
    ...keyLines(input, "javascript"),
    `const ai = new GoogleGenAI({`,
    `  apiKey: process.env.${KEY_VARIABLE},`,
    `  httpOptions: ${httpOptions},`,
    `});`,
    ``,
    `const stream = await ai.models.generateContentStream({`,
    ...parameters,
    `});`,
    `for await (const chunk of stream) process.stdout.write(chunk.text ?? "");`,
    `process.stdout.write("\\n");`,
    ``,
  ].join("\n");
}

/**
 * Keys whose values are the caller's own data (property names, function arguments, JSON Schema
 * documents): written as they are, never renamed to snake_case.
 */
const VERBATIM_KEYS = new Set([
  "args",
  "response",
  "responseJsonSchema",
  "parametersJsonSchema",
  "labels",
]);
/** Keys whose value is a map of names to schemas: the names stay, the schemas are converted. */
const NAMED_SCHEMA_KEYS = new Set(["properties", "$defs", "defs"]);
/** Bytes fields: the Python SDK takes bytes, so their base64 text is decoded in the snippet. */
const BYTES_KEYS = new Set(["data", "thoughtSignature"]);

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** A Python literal of a JSON value (`True`, `None`, dicts and lists), indented like json.dumps. */
function pythonValue(value: unknown, indent: string, convertKeys: boolean, key = ""): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "None";
  if (typeof value === "string") {
    // JSON string escapes (\n, \", \uXXXX) are valid Python string escapes too.
    const literal = JSON.stringify(value);
    return convertKeys && BYTES_KEYS.has(key) ? `base64.b64decode(${literal})` : literal;
  }
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((item) => `${inner}${pythonValue(item, inner, convertKeys, key)}`);
    return `[\n${items.join(",\n")},\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  const names = NAMED_SCHEMA_KEYS.has(key) && convertKeys;
  const items = entries.map(([name, child]) => {
    const verbatim = !convertKeys || VERBATIM_KEYS.has(name);
    const written = names || !convertKeys ? name : snakeCase(name);
    const childValue = names
      ? pythonValue(child, inner, true)
      : pythonValue(child, inner, !verbatim, name);
    return `${inner}${JSON.stringify(written)}: ${childValue}`;
  });
  return `{\n${items.join(",\n")},\n${indent}}`;
}

function usesBytes(value: unknown, key = ""): boolean {
  if (typeof value === "string") return BYTES_KEYS.has(key);
  if (Array.isArray(value)) return value.some((item) => usesBytes(item, key));
  if (typeof value !== "object" || value === null) return false;
  return Object.entries(value).some(
    ([name, child]) => !VERBATIM_KEYS.has(name) && usesBytes(child, name),
  );
}

export function pythonSnippet(input: CodeInput): string {
  const httpOptions =
    input.target.kind === "studio"
      ? `{"base_url": ${JSON.stringify(origin(input.target))}, "api_version": "v1beta"}`
      : `{"api_version": "v1beta"}`;
  const config = sdkConfig(input.request);
  const contents: Content[] = input.request.contents;
  const lines = [
    ...(usesBytes(input.request) ? ["import base64"] : []),
    "import os",
    "",
    "from google import genai",
    "",
    ...keyLines(input, "python"),
    "client = genai.Client(",
    `    api_key=os.environ[${JSON.stringify(KEY_VARIABLE)}],`,
    `    http_options=${httpOptions},`,
    ")",
    "",
    "for chunk in client.models.generate_content_stream(",
    `    model=${JSON.stringify(modelId(input.model))},`,
    `    contents=${pythonValue(contents, "    ", true)},`,
  ];
  // The studio never runs functions itself (a person answers each call): the SDK's automatic
  // function calling is off, which also keeps its warning about it off stderr. Not sent on the wire.
  const pythonConfig = { ...config, automaticFunctionCalling: { disable: true } };
  lines.push(`    config=${pythonValue(pythonConfig, "    ", true)},`);
  lines.push("):", '    print(chunk.text or "", end="", flush=True)', "print()", "");
  return lines.join("\n");
}

function indentAfterFirstLine(text: string, indent: string): string {
  return text.replace(/\n/g, `\n${indent}`);
}

/** The snippet of one language. */
export function codeSnippet(language: CodeLanguage, input: CodeInput): string {
  switch (language) {
    case "curl":
      return curlSnippet(input);
    case "python":
      return pythonSnippet(input);
    case "javascript":
      return javascriptSnippet(input);
    case "rest":
      return restSnippet(input);
  }
}
