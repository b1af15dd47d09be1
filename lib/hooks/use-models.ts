"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { traitsFromModel, type ModelTraits } from "@/lib/gemini/model-traits";
import { readApiError } from "@/lib/gemini/client/read-api-error";
import type { ListModelsResponse, Model } from "@/lib/gemini/types";

export interface ModelChoice {
  model: Model;
  traits: ModelTraits;
}

async function fetchModels(): Promise<ModelChoice[]> {
  const response = await fetch("/v1beta/models?pageSize=1000", { credentials: "same-origin" });
  if (!response.ok) throw await readApiError(response);
  const body = (await response.json()) as ListModelsResponse;
  return (body.models ?? [])
    .filter((model) =>
      (model.supportedGenerationMethods ?? ["generateContent"]).includes("generateContent"),
    )
    .map((model) => ({ model, traits: traitsFromModel(model) }));
}

/** Query options of the model list (`GET /v1beta/models`), with each model's traits. */
export function modelsQueryOptions() {
  return queryOptions({
    queryKey: ["models"] as const,
    queryFn: fetchModels,
    staleTime: 5 * 60_000,
  });
}

/** The models that can generate content, with their traits. */
export function useModels() {
  return useQuery(modelsQueryOptions());
}
