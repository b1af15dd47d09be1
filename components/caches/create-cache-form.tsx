"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field, inputClassName } from "@/components/ui/field";
import { ApiError } from "@/lib/gemini/api-error";
import type { CachedContent } from "@/lib/gemini/types";
import { parseCachedContentCreate } from "@/lib/gemini/validate-caches";
import { useCreateCache } from "@/lib/hooks/use-caches";
import { useCacheDraft } from "@/lib/hooks/use-cache-draft";
import { ActiveFilesField, CacheModelField, ConversationField } from "./cache-source-fields";
import { CacheSizeStatus } from "./cache-size-status";
import { ExpiryFields } from "./expiry-fields";

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
 * What the form describes is useCacheDraft; what is left here is the form's one layout.
 */
export function CreateCacheForm({
  initialConversationId,
  onCreated,
}: {
  initialConversationId: string | null;
  onCreated(cache: CachedContent): void;
}) {
  const formId = useId();
  const draft = useCacheDraft(initialConversationId);
  const create = useCreateCache();
  const [problems, setProblems] = useState<string[]>([]);
  const { conversation, size, minimum, tooSmall, nothing } = draft;

  function submit(event: FormEvent) {
    event.preventDefault();
    const request = draft.body();
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
        draft.setFileNames([]);
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
              value={draft.displayName}
              maxLength={200}
              onFocus={draft.touchDisplayName}
              onChange={(event) => draft.setDisplayName(event.target.value)}
            />
          )}
        </Field>
        <CacheModelField
          model={draft.model}
          cacheModels={draft.cacheModels}
          onChange={draft.setModel}
        />
        <ConversationField
          conversationId={draft.conversationId}
          conversations={draft.conversations}
          chosenTitle={conversation.data?.title}
          loadError={conversation.isError ? conversation.error : null}
          onChange={draft.setConversationId}
        />
        <ActiveFilesField
          loading={draft.filesLoading}
          activeFiles={draft.activeFiles}
          fileNames={draft.fileNames}
          onChange={draft.setFileNames}
        />
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
            value={draft.systemInstruction}
            onChange={(event) => draft.setSystemInstruction(event.target.value)}
          />
        )}
      </Field>
      <ExpiryFields value={draft.expiry} onChange={draft.setExpiry} problem={expiryProblem} />

      <CacheSizeStatus
        nothing={nothing}
        waitingForConversation={draft.waitingForConversation}
        size={size}
        model={draft.model}
        minimum={minimum}
        tooSmall={tooSmall}
      />

      <CreateProblems problems={problems} refusal={create.isError ? create.error : null} />
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

/** Why the cache cannot be created: the form's own checks, then the service's refusal. */
function CreateProblems({ problems, refusal }: { problems: string[]; refusal: Error | null }) {
  return (
    <>
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
      {refusal && (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950/50 dark:text-red-200"
        >
          The service refused the cache: {refusal.message}
          {refusal instanceof ApiError ? ` (${refusal.httpStatus} ${refusal.rpcStatus})` : ""}
        </p>
      )}
    </>
  );
}
