import "server-only";
import type { Backend, OperationContext } from "@/lib/gemini/backend/contract";
import type { ModelPurpose } from "@/lib/gemini/model-uses";
import type { Model } from "@/lib/gemini/types";
import { catalogEntryForResource, LISTED_MODELS } from "@/lib/engine/catalog";
import type { ModelFacts, ModelFactsList } from "@/lib/studio/model-facts";
import { backend } from "../wiring/active-backend";

/**
 * The studio's model facts (lib/studio/model-facts.ts) over the model list in force: the
 * backend's `models.list` (the engine's catalog locally, the upstream's through the gateway),
 * each model read through the engine's catalog (its own entry, or its family's by the
 * catalog's family rules). A model the catalog knows nothing of keeps what its resource says;
 * its requests are the upstream's to judge. When the upstream's list cannot be read, the
 * catalog's stands in and the answer says why.
 */

/** How long the upstream's list is reused (it changes a few times a year). */
const UPSTREAM_LIST_TTL_MS = 5 * 60_000;
/** How long a failure to read it stands before the next request tries again. */
const UPSTREAM_RETRY_MS = 30_000;
/** Pages of the list read at most (1000 models each). */
const MAX_PAGES = 10;

/** What a model the catalog does not know is for, from the methods its resource names. */
function purposeFromMethods(methods: readonly string[]): ModelPurpose {
  if (methods.includes("generateContent")) return "chat";
  if (methods.some((method) => /embed/i.test(method))) return "embedding";
  return "other";
}

function factsOfResource(resource: Model): Omit<ModelFacts, "label"> {
  const methods = resource.supportedGenerationMethods ?? [];
  const chats = methods.includes("generateContent");
  // A model that does not chat (an embedding model, one the catalog does not know) has no
  // generation traits for the studio to read: its methods say what it is for.
  const entry = chats ? catalogEntryForResource(resource) : undefined;
  if (!entry)
    return {
      model: resource,
      purpose: purposeFromMethods(methods),
      chats,
      inputs: chats ? ["TEXT"] : [],
      needs: {},
    };
  const {
    promptTokens: _promptTokens,
    cacheTokens: _cacheTokens,
    countTokensCounting: _countTokensCounting,
    ...traits
  } = entry.traits;
  const textAnswers = traits.responseModalities.some(
    (combination) => combination.length === 1 && combination[0] === "TEXT",
  );
  return {
    model: resource,
    purpose: entry.purpose,
    chats,
    inputs: entry.inputModalities,
    traits,
    // A model that cannot answer in text alone needs the first combination it offers.
    needs: textAnswers ? {} : { responseModalities: traits.responseModalities[0] },
  };
}

/** Display names made distinct: a name two models share carries each one's id. */
function withLabels(facts: Omit<ModelFacts, "label">[]): ModelFacts[] {
  const nameOf = (resource: Model) =>
    resource.displayName?.trim() || resource.name.replace(/^models\//, "");
  const counts = new Map<string, number>();
  for (const { model } of facts) counts.set(nameOf(model), (counts.get(nameOf(model)) ?? 0) + 1);
  return facts.map((item) => {
    const name = nameOf(item.model);
    const id = item.model.name.replace(/^models\//, "");
    return {
      ...item,
      label: (counts.get(name) ?? 0) > 1 && name !== id ? `${name} (${id})` : name,
    };
  });
}

/** The facts of every model of a list, in its order. */
export function modelFacts(resources: readonly Model[]): ModelFacts[] {
  return withLabels(resources.map(factsOfResource));
}

async function listAllModels(backend: Backend, context: OperationContext): Promise<Model[]> {
  const models: Model[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await backend.listModels({ pageSize: 1000, pageToken }, context);
    models.push(...(answer.models ?? []));
    pageToken = answer.nextPageToken;
    if (!pageToken) break;
  }
  return models;
}

interface Held {
  list: Promise<ModelFactsList>;
  until: number;
}

let catalogList: ModelFacts[] | null = null;
/** The facts of the catalog's listed models (the local engine's list). */
function catalogFacts(): ModelFacts[] {
  return (catalogList ??= modelFacts(LISTED_MODELS));
}

/**
 * Reads the model facts of one backend, kept for a while: the local catalog's for the
 * process's life, the upstream's for UPSTREAM_LIST_TTL_MS (a failed read for
 * UPSTREAM_RETRY_MS, the catalog's list answering meanwhile). Concurrent readers share one
 * read, which no one reader's departure cancels.
 */
export function createModelFactsReader(now: () => number = Date.now) {
  let held: Held | null = null;

  function readUpstream(backend: Backend, caller: OperationContext["caller"]): Held {
    const list = listAllModels(backend, { caller, signal: AbortSignal.timeout(15_000) }).then(
      (models): ModelFactsList => ({ models: modelFacts(models), source: "upstream" }),
      (error: unknown): ModelFactsList => {
        if (held?.list === list) held.until = now() + UPSTREAM_RETRY_MS;
        const reason = error instanceof Error ? error.message : String(error);
        return {
          models: catalogFacts(),
          source: "upstream",
          problem: `The upstream's model list could not be read (${reason}); these are the local catalog's models.`,
        };
      },
    );
    return { list, until: now() + UPSTREAM_LIST_TTL_MS };
  }

  return (backend: Backend, context: OperationContext): Promise<ModelFactsList> => {
    if (backend.mode === "local")
      return Promise.resolve({ models: catalogFacts(), source: "local" });
    if (!held || held.until <= now()) held = readUpstream(backend, context.caller);
    return held.list;
  };
}

const readModelFacts = createModelFactsReader();

/** The model facts of the backend in force, for a caller (the pages' `/api/models`). */
export async function studioModelFacts(context: OperationContext): Promise<ModelFactsList> {
  return readModelFacts(await backend(), context);
}
