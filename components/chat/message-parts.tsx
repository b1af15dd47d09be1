"use client";

import { memo, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { inputClassName } from "@/components/ui/field";
import type { FunctionCall, Part } from "@/lib/gemini/types";
import { MarkdownView } from "./markdown-view";
import { InlineMediaPart } from "./metadata/inline-media";

/** Text of a JSON answer, pretty-printed; null when it is not JSON. */
export function prettyJson(text: string): string | null {
  const trimmed = text.trim();
  if (!/^[[{"]|^-?\d|^(true|false|null)$/.test(trimmed)) return null;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return null;
  }
}

function JsonAnswer({ json }: { json: string }) {
  return (
    <figure className="my-1">
      <figcaption className="text-xs text-zinc-600 dark:text-zinc-400">JSON</figcaption>
      <pre
        data-json-answer=""
        tabIndex={0}
        className="overflow-x-auto rounded-md border border-zinc-200 bg-zinc-50 p-3 font-mono text-[13px] leading-5 dark:border-zinc-800 dark:bg-zinc-900"
      >
        {json}
      </pre>
    </figure>
  );
}

export const ThoughtsSection = memo(function ThoughtsSection({
  text,
  streaming,
}: {
  text: string;
  streaming: boolean;
}) {
  return (
    <details className="my-1 rounded-md border border-zinc-200 px-3 py-1 text-zinc-700 dark:border-zinc-800 dark:text-zinc-300">
      <summary className="cursor-pointer text-xs font-medium select-none">
        {streaming ? "Thinking…" : "Thoughts"}
      </summary>
      <MarkdownView text={text} />
    </details>
  );
});

export interface FunctionCallCardProps {
  call: FunctionCall;
  /** Present when the call can be answered (the last answer, nothing streaming). */
  onRespond?: (response: Record<string, unknown>) => void;
}

/** A function call as a card: name, arguments, and a form to send the function's response. */
export function FunctionCallCard({ call, onRespond }: FunctionCallCardProps) {
  const [text, setText] = useState('{\n  "result": ""\n}');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  function submit() {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (parseError) {
      setError(`Not valid JSON: ${(parseError as Error).message}`);
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      setError("The response must be a JSON object.");
      return;
    }
    setError(null);
    onRespond?.(value as Record<string, unknown>);
  }
  return (
    <section
      aria-label={`Function call ${call.name}`}
      className="my-2 rounded-md border border-blue-300 bg-blue-50 p-3 text-sm dark:border-blue-800 dark:bg-blue-950/40"
    >
      <p className="font-medium">
        Function call: <code className="font-mono">{call.name}</code>
      </p>
      <pre className="mt-1 overflow-x-auto font-mono text-xs">
        {JSON.stringify(call.args ?? {}, null, 2)}
      </pre>
      {onRespond && (
        <div className="mt-2 flex flex-col gap-1">
          <label htmlFor={inputId} className="text-xs font-medium">
            Response of {call.name} (JSON object)
          </label>
          <textarea
            id={inputId}
            value={text}
            onChange={(event) => setText(event.target.value)}
            rows={3}
            className={`${inputClassName} font-mono`}
            aria-invalid={error ? true : undefined}
          />
          {error && <p className="text-xs text-red-700 dark:text-red-400">{error}</p>}
          <Button size="sm" variant="primary" className="self-start" onClick={submit}>
            Send function response
          </Button>
        </div>
      )}
    </section>
  );
}

/** A function's response sent back in the conversation, as its JSON. */
function FunctionResponseCard({ response }: { response: NonNullable<Part["functionResponse"]> }) {
  return (
    <section
      aria-label={`Function response ${response.name}`}
      className="my-1 rounded-md border border-zinc-300 p-2 text-xs dark:border-zinc-700"
    >
      <p className="font-medium">
        Function response: <code className="font-mono">{response.name}</code>
      </p>
      <pre className="overflow-x-auto font-mono">{JSON.stringify(response.response, null, 2)}</pre>
    </section>
  );
}

export interface PartsViewProps {
  parts: readonly Part[];
  streaming: boolean;
  /** The answer was asked as JSON: pretty-print it once complete. */
  json: boolean;
  onFunctionResponse?: (call: FunctionCall, response: Record<string, unknown>) => void;
}

/** The parts of one candidate: thoughts collapsed, text as markdown (or JSON), calls as cards. */
export function PartsView({ parts, streaming, json, onFunctionResponse }: PartsViewProps) {
  return (
    <>
      {parts.map((part, index) => {
        if (typeof part.text === "string" && part.thought)
          return <ThoughtsSection key={index} text={part.text} streaming={streaming} />;
        if (typeof part.text === "string") {
          const pretty = json && !streaming ? prettyJson(part.text) : null;
          return pretty !== null ? (
            <JsonAnswer key={index} json={pretty} />
          ) : (
            <MarkdownView key={index} text={part.text} />
          );
        }
        if (part.functionCall) {
          const call = part.functionCall;
          return (
            <FunctionCallCard
              key={index}
              call={call}
              onRespond={
                onFunctionResponse ? (response) => onFunctionResponse(call, response) : undefined
              }
            />
          );
        }
        if (part.functionResponse)
          return <FunctionResponseCard key={index} response={part.functionResponse} />;
        if (part.executableCode) {
          return (
            <MarkdownView
              key={index}
              text={`\`\`\`${part.executableCode.language.toLowerCase()}\n${part.executableCode.code}\n\`\`\``}
            />
          );
        }
        if (part.codeExecutionResult) {
          return (
            <pre
              key={index}
              className="my-1 overflow-x-auto rounded-md bg-zinc-100 p-2 font-mono text-xs dark:bg-zinc-900"
            >
              {part.codeExecutionResult.outcome}: {part.codeExecutionResult.output ?? ""}
            </pre>
          );
        }
        if (part.inlineData?.mimeType.startsWith("image/")) {
          return (
            // Inline bytes from the answer: next/image has nothing to optimise in a data: URL.
            // eslint-disable-next-line @next/next/no-img-element
            <img
              key={index}
              alt="Image in the answer"
              src={`data:${part.inlineData.mimeType};base64,${part.inlineData.data}`}
              className="my-1 max-h-96 rounded-md"
            />
          );
        }
        if (part.inlineData) return <InlineMediaPart key={index} inline={part.inlineData} />;
        return (
          <pre key={index} className="my-1 overflow-x-auto text-xs">
            {JSON.stringify(part, null, 2)}
          </pre>
        );
      })}
    </>
  );
}
