"use client";

import { useId, useMemo, useState, type FormEvent } from "react";
import { historyContents } from "@/lib/studio/chat-request";
import { formatBytes } from "@/lib/studio/attachment-model";
import { Button } from "@/components/ui/button";
import { Field, inputClassName } from "@/components/ui/field";
import { ApiError } from "@/lib/gemini/api-error";
import { knowsCacheMinimum, minCacheTokens } from "@/lib/gemini/cache-minimums";
import type { CachedContent, CachedContentCreate, Content } from "@/lib/gemini/types";
import { parseCachedContentCreate } from "@/lib/gemini/validate";
import { useCreateCache } from "@/lib/hooks/use-caches";
import { useConversation, useConversationList } from "@/lib/hooks/use-conversations";
import { useFiles } from "@/lib/hooks/use-files";
import { useModels } from "@/lib/hooks/use-models";
import { useTokenCount, type TokenCountInput } from "@/lib/hooks/use-token-count";
import { modalityBreakdown } from "@/components/tokens/token-counter";
import { ExpiryFields } from "./expiry-fields";
import { DEFAULT_EXPIRY, expiryFields, type ExpiryChoice } from "@/lib/studio/expiry-input";

const DEFAULT_CACHE_MODEL = "models/gemini-2.5-flash";

/** The form fields the service's violations belong to. */
function violationsOf(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [error instanceof Error ? error.message : String(error)];
  const fieldViolations =
    error.details?.flatMap((detail) =>
      "fieldViolations" in detail ? detail.fieldViolations : [],
    ) ?? [];
  return fieldViolations.length
    ? fieldViolations.map((violation) => `${violation.field}: ${violation.description}`)
    : [error.message];
}

/**
 * Creates a cached content from a conversation and/or files plus a system instruction, with a
 * ttl or an expiry time. Before creating it shows the size (countTokens of exactly what will
 * be cached) against the model's minimum, and checks the body with the server's own rules.
 */
export function CreateCacheForm({
  initialConversationId,
  onCreated,
}: {
  initialConversationId: string | null;
  onCreated(cache: CachedContent): void;
}) {
  const formId = useId();
  const models = useModels();
  const conversations = useConversationList("");
  const files = useFiles(100);
  const create = useCreateCache();
  const [displayName, setDisplayName] = useState("");
  const [model, setModel] = useState(DEFAULT_CACHE_MODEL);
  const [conversationId, setConversationId] = useState<string>(initialConversationId ?? "");
  const [fileNames, setFileNames] = useState<string[]>([]);
  const [systemInstruction, setSystemInstruction] = useState("");
  const [expiry, setExpiry] = useState<ExpiryChoice>(DEFAULT_EXPIRY);
  const [problems, setProblems] = useState<string[]>([]);
  const conversation = useConversation(conversationId || null);

  const cacheModels = useMemo(
    () =>
      (models.data ?? []).filter((choice) =>
        choice.traits.supportedGenerationMethods.includes("createCachedContent"),
      ),
    [models.data],
  );
  const activeFiles = useMemo(
    () =>
      (files.data?.pages.flatMap((page) => page.files ?? []) ?? []).filter(
        (file) => file.state === "ACTIVE",
      ),
    [files.data],
  );

  // A conversation chosen from the chat (or here) suggests its model and title, once; the
  // title only into a display name the person has not started on (focused or typed in), so
  // it never lands in front of what they type while the conversation loads.
  // Adjusted while rendering (React's pattern for state that follows loaded data), not in an effect.
  const [suggestedFor, setSuggestedFor] = useState<string | null>(null);
  const [displayNameTouched, setDisplayNameTouched] = useState(false);
  const loaded = conversation.data;
  if (loaded && cacheModels.length && suggestedFor !== loaded.id) {
    setSuggestedFor(loaded.id);
    if (!displayNameTouched) setDisplayName((current) => current || loaded.title.slice(0, 128));
    if (cacheModels.some((choice) => choice.model.name === loaded.settings.model))
      setModel(loaded.settings.model);
  }

  const contents = useMemo<Content[]>(() => {
    const chosen = activeFiles.filter((file) => fileNames.includes(file.name));
    const result: Content[] = [];
    if (chosen.length)
      result.push({
        role: "user",
        parts: chosen.map((file) => ({ fileData: { mimeType: file.mimeType, fileUri: file.uri } })),
      });
    if (conversation.data) result.push(...historyContents(conversation.data.messages));
    return result;
  }, [activeFiles, fileNames, conversation.data]);

  const system = systemInstruction.trim() ? { parts: [{ text: systemInstruction }] } : undefined;
  const countInput = useMemo<TokenCountInput | null>(
    () =>
      contents.length
        ? { model, request: { contents, ...(system ? { systemInstruction: system } : {}) } }
        : null,
    // system is derived from systemInstruction
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [model, contents, systemInstruction],
  );
  const size = useTokenCount(countInput, 500);
  const total = size.result?.totalTokens;
  const minimum = minCacheTokens(model);
  const tooSmall = total !== undefined && size.current && total < minimum;
  const nothing = contents.length === 0;
  const waitingForConversation =
    conversationId !== "" && !conversation.data && !conversation.isError;

  function body(): CachedContentCreate | { problem: string } {
    const fields = expiryFields(expiry);
    if ("problem" in fields) return fields;
    const request: CachedContentCreate = { model, ...fields };
    if (displayName.trim()) request.displayName = displayName.trim();
    if (contents.length) request.contents = contents;
    if (system) request.systemInstruction = system;
    return request;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const request = body();
    if ("problem" in request) {
      setProblems([request.problem]);
      return;
    }
    try {
      parseCachedContentCreate(request);
    } catch (error) {
      setProblems(violationsOf(error));
      return;
    }
    setProblems([]);
    create.mutate(request, {
      onSuccess: (cache) => {
        setFileNames([]);
        onCreated(cache);
      },
    });
  }

  const expiryProblem =
    problems.find((problem) => /time to live|expiry time/i.test(problem)) ?? null;

  return (
    <form
      onSubmit={submit}
      aria-labelledby={`${formId}-title`}
      className="flex flex-col gap-4 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <h2 id={`${formId}-title`} className="text-base font-semibold">
        Create a cache
      </h2>
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Display name" hint="Up to 128 characters.">
          {(props) => (
            <input
              {...props}
              className={inputClassName}
              value={displayName}
              maxLength={200}
              onFocus={() => setDisplayNameTouched(true)}
              onChange={(event) => setDisplayName(event.target.value)}
            />
          )}
        </Field>
        <Field label="Model" hint="A cache can only be used with the model it was made for.">
          {(props) => (
            <select
              {...props}
              className={inputClassName}
              value={model}
              onChange={(event) => setModel(event.target.value)}
            >
              {!cacheModels.some((choice) => choice.model.name === model) && (
                <option value={model}>{model.replace(/^models\//, "")}</option>
              )}
              {cacheModels.map((choice) => (
                <option key={choice.model.name} value={choice.model.name}>
                  {choice.model.displayName ?? choice.model.name} (
                  {choice.model.name.replace(/^models\//, "")})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Conversation"
          hint={
            conversation.isError
              ? `Could not load it: ${conversation.error.message}`
              : "Its messages become the cached contents."
          }
        >
          {(props) => (
            <select
              {...props}
              className={inputClassName}
              value={conversationId}
              onChange={(event) => setConversationId(event.target.value)}
            >
              <option value="">None</option>
              {conversationId &&
                !conversations.data?.conversations.some((item) => item.id === conversationId) && (
                  <option value={conversationId}>
                    {conversation.data?.title ?? conversationId}
                  </option>
                )}
              {(conversations.data?.conversations ?? []).map((item) => (
                <option key={item.id} value={item.id}>
                  {item.title}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset className="flex flex-col gap-1">
          <legend className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
            Files (ACTIVE)
          </legend>
          {files.isPending ? (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">Loading files…</p>
          ) : activeFiles.length === 0 ? (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              No ACTIVE files. Upload some on the Files page.
            </p>
          ) : (
            <ul className="max-h-32 overflow-y-auto text-sm">
              {activeFiles.map((file) => (
                <li key={file.name}>
                  <label className="inline-flex items-center gap-1.5">
                    <input
                      type="checkbox"
                      checked={fileNames.includes(file.name)}
                      onChange={(event) =>
                        setFileNames((names) =>
                          event.target.checked
                            ? [...names, file.name]
                            : names.filter((name) => name !== file.name),
                        )
                      }
                    />
                    {file.displayName || file.name}
                    <span className="text-xs text-zinc-600 dark:text-zinc-400">
                      {file.mimeType} · {formatBytes(Number(file.sizeBytes))}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
      </div>
      <Field
        label="System instruction"
        hint="Cached with the contents; chats that use the cache cannot send their own."
      >
        {(props) => (
          <textarea
            {...props}
            rows={3}
            className={inputClassName}
            value={systemInstruction}
            onChange={(event) => setSystemInstruction(event.target.value)}
          />
        )}
      </Field>
      <ExpiryFields value={expiry} onChange={setExpiry} problem={expiryProblem} />

      <div
        role="status"
        aria-live="polite"
        className="rounded-md bg-zinc-100 px-3 py-2 text-sm dark:bg-zinc-900"
        data-testid="cache-size"
      >
        {nothing ? (
          waitingForConversation ? (
            "Loading the conversation…"
          ) : (
            "Choose a conversation and/or files to cache."
          )
        ) : total === undefined ? (
          size.error ? (
            `Could not count the tokens: ${size.error.message}`
          ) : (
            "Counting the tokens…"
          )
        ) : (
          <>
            Size:{" "}
            <strong className="tabular-nums" data-cache-size={total}>
              {total.toLocaleString("en")}
            </strong>{" "}
            tokens
            {size.counting ? " (updating…)" : ""} · minimum for {model.replace(/^models\//, "")}:{" "}
            <strong className="tabular-nums">{minimum.toLocaleString("en")}</strong>
            {!knowsCacheMinimum(model) && " (assumed)"}
            {modalityBreakdown(size.result?.promptTokensDetails) && (
              <> · {modalityBreakdown(size.result?.promptTokensDetails)}</>
            )}
            {tooSmall && (
              <span className="mt-1 block font-medium text-red-700 dark:text-red-400">
                Too small: the service refuses caches under {minimum.toLocaleString("en")} tokens
                for this model. Add contents or choose another model.
              </span>
            )}
          </>
        )}
      </div>

      {problems.length > 0 && (
        <ul
          role="alert"
          className="list-disc rounded-md bg-red-50 py-2 pl-8 pr-3 text-sm text-red-900 dark:bg-red-950/50 dark:text-red-200"
        >
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      {create.isError && (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950/50 dark:text-red-200"
        >
          The service refused the cache: {create.error.message}
          {create.error instanceof ApiError
            ? ` (${create.error.httpStatus} ${create.error.rpcStatus})`
            : ""}
        </p>
      )}
      <div className="flex items-center justify-end gap-2">
        {tooSmall && (
          <span className="text-xs text-zinc-600 dark:text-zinc-400">
            Below the model&apos;s minimum.
          </span>
        )}
        <Button type="submit" variant="primary" disabled={create.isPending || nothing || tooSmall}>
          {create.isPending ? "Creating…" : "Create cache"}
        </Button>
      </div>
    </form>
  );
}
