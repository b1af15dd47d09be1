"use client";

import { useState, type FormEvent } from "react";
import { ApiError } from "@/lib/gemini/api-error";
import type { CachedContent } from "@/lib/gemini/types";
import { parseCachedContentCreate } from "@/lib/gemini/validate-caches";
import { useCreateCache } from "@/lib/hooks/use-caches";
import type { CacheDraft } from "@/lib/hooks/use-cache-draft";

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
 * Creating the cache a draft describes: the body is checked with the server's own rules first
 * (`problems` says what is wrong), then sent; once created, the whole form starts afresh (a
 * form half kept invites a second cache of the same things).
 */
export function useCacheCreation(draft: CacheDraft, onCreated: (cache: CachedContent) => void) {
  const create = useCreateCache();
  const [problems, setProblems] = useState<string[]>([]);

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
        draft.reset();
        onCreated(cache);
      },
    });
  }

  return { create, problems, submit };
}
