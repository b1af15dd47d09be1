"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { readApiError } from "@/lib/gemini/client/read-api-error";
import type { ModelFactsList } from "@/lib/studio/model-facts";
import { MODELS_QUERY_KEY } from "@/lib/studio/query-keys";

async function fetchModelFacts(): Promise<ModelFactsList> {
  const response = await fetch("/api/models", { credentials: "same-origin" });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as ModelFactsList;
}

/** Query options of the model facts (`/api/models`): the list in force, each model's rules. */
export function modelsQueryOptions() {
  return queryOptions({
    queryKey: MODELS_QUERY_KEY,
    queryFn: fetchModelFacts,
    staleTime: 5 * 60_000,
  });
}

const modelsOf = (list: ModelFactsList) => list.models;

/** The facts of every model of the list in force (lib/studio/model-facts.ts). */
export function useModels() {
  return useQuery({ ...modelsQueryOptions(), select: modelsOf });
}

/** The model list with where it came from (and why the upstream's could not be read). */
export function useModelList() {
  return useQuery(modelsQueryOptions());
}
