/**
 * Who answers an interaction: a model of the catalog, or an agent (catalog/agents.json) running
 * on its own catalog entry with its tools. The rules of the two differ as the service's do: a
 * model answers in the foreground only (recorded: "Model 'gemini-2.5-flash' does not support
 * background interactions."), an agent in the background only (its documentation), and a
 * background interaction must be stored to be polled.
 */
import { ApiError } from "@/lib/gemini/api-error";
import { invalidInteraction, invalidInteractionField } from "@/lib/gemini/interactions/errors";
import type { BuiltInToolName, InteractionCreate } from "@/lib/gemini/interactions/types";
import { findModel, type CatalogEntry } from "../catalog";
import data from "../catalog/agents.json";

export interface AgentProfile {
  tools: BuiltInToolName[];
  thinkingSummaries: boolean;
  maxOutputTokens: number;
  /** How fast its report is written (the service's agents work for minutes). */
  outputTokensPerSecond: number;
}

const AGENTS = data.agents as Record<string, AgentProfile>;

export interface InteractionTarget {
  entry: CatalogEntry;
  /** The name the interaction shows: `{"model": ...}` or `{"agent": ...}`. */
  shown: { model: string } | { agent: string };
  agent?: AgentProfile;
}

function usable(entry: CatalogEntry | undefined): entry is CatalogEntry {
  return entry !== undefined && entry.traits.supportedGenerationMethods.includes("generateContent");
}

export function interactionTarget(create: InteractionCreate): InteractionTarget {
  if (create.background && !create.store)
    throw invalidInteractionField("store", "a background interaction must be stored.");
  if (create.model !== undefined) {
    const id = create.model.replace(/^models\//, "");
    const entry = findModel(create.model);
    if (!usable(entry)) throw ApiError.notFound(`Model '${id}' was not found.`);
    if (create.background)
      throw invalidInteraction(`Model '${id}' does not support background interactions.`);
    return { entry, shown: { model: id } };
  }
  const id = create.agent!;
  const agent = AGENTS[id];
  const entry = findModel(id);
  if (!agent || !usable(entry)) {
    if (entry) throw invalidInteraction(`Agent '${id}' is not available in the local engine.`);
    throw ApiError.notFound(`Agent '${id}' was not found.`);
  }
  if (!create.background)
    throw invalidInteractionField("background", `agent '${id}' runs only in the background.`);
  return { entry, shown: { agent: id }, agent };
}

/** An agent's request: its own tools and thinking added to what the caller asked. */
export function withAgentProfile(
  create: InteractionCreate,
  agent: AgentProfile,
): InteractionCreate {
  const asked = new Set(create.tools?.map((tool) => tool.type));
  const summaries =
    create.agent_config?.thinking_summaries === "none" ? false : agent.thinkingSummaries;
  return {
    ...create,
    tools: [
      ...(create.tools ?? []),
      ...agent.tools.filter((tool) => !asked.has(tool)).map((type) => ({ type, options: {} })),
    ],
    generation_config: {
      max_output_tokens: agent.maxOutputTokens,
      ...(summaries ? { thinking_summaries: "auto" as const } : {}),
      ...create.generation_config,
    },
  };
}
