/**
 * The local engine behind the Backend interface: validates each request with
 * lib/gemini/validate and answers it offline. Models come from the catalog.
 */
import type { Db } from "@/lib/db/database";
import type { Backend, OperationContext, PageQuery } from "@/lib/gemini/backend";
import type { CountTokensResponse, ListModelsResponse, Model } from "@/lib/gemini/types";
import { parseCountTokensRequest } from "@/lib/gemini/validate";
import { CATALOG, requireModel } from "./catalog";
import { pageByOffset } from "./page-token";
import { countRequestTokens } from "./tokens";

export interface LocalBackendDependencies {
  /** The studio's SQLite database (migrations applied): files, upload sessions and caches live here. */
  db: Db;
  /** Root folder for file bytes. */
  dataDir: string;
}

export function createLocalBackend(dependencies: LocalBackendDependencies): Backend {
  void dependencies;
  return {
    mode: "local",

    async listModels(query: PageQuery): Promise<ListModelsResponse> {
      const pageSize = query.pageSize ?? 50;
      const page = pageByOffset(
        CATALOG.map((item) => item.model),
        pageSize,
        query.pageToken,
        `models:${pageSize}`,
      );
      return page.nextPageToken ? { models: page.items, nextPageToken: page.nextPageToken } : { models: page.items };
    },

    async getModel(model: string): Promise<Model> {
      return requireModel(model, "get").model;
    },

    async countTokens(model: string, body: unknown, context: OperationContext): Promise<CountTokensResponse> {
      const { traits } = requireModel(model, "countTokens");
      const request = parseCountTokensRequest(body, traits);
      const source = request.generateContentRequest ?? { contents: request.contents ?? [] };
      return countRequestTokens(
        traits,
        {
          contents: source.contents,
          systemInstruction: source.systemInstruction,
          tools: source.tools,
          toolConfig: source.toolConfig,
          mediaResolution: source.generationConfig?.mediaResolution,
        },
        { signal: context.signal },
      );
    },

    async generateContent() {
      throw new Error("generateContent is wired by the generation engine");
    },

    streamGenerateContent() {
      throw new Error("streamGenerateContent is wired by the generation engine");
    },
  };
}
