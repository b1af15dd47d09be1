"use client";

import { useId } from "react";
import { Button } from "@/components/ui/button";
import { ApiError } from "@/lib/gemini/api-error";
import type { CachedContent } from "@/lib/gemini/types";
import { useCacheDraft } from "@/lib/hooks/use-cache-draft";
import { CacheDraftFields } from "./cache-draft-fields";
import { CacheSizeStatus } from "./cache-size-status";
import { useCacheCreation } from "./use-cache-creation";

/**
 * Creates a cached content from a conversation and/or files plus a system instruction, with a
 * ttl or an expiry time. Before creating it shows the size (countTokens of exactly what will
 * be cached) against the model's minimum, and checks the body with the server's own rules.
 * What the form describes is useCacheDraft, its fields CacheDraftFields, creating it
 * useCacheCreation; what is left here is the form's one layout.
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
  const { create, problems, submit } = useCacheCreation(draft, onCreated);
  const { size, minimum, tooSmall, nothing } = draft;
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
      <CacheDraftFields draft={draft} expiryProblem={expiryProblem} />

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
