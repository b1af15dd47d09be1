import "server-only";
import type { ApiVersion } from "@/lib/gemini/api-version-fields";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import type { Handler } from "./request-context";
import { authenticate, type AuthenticateOptions } from "../auth/authenticate";
import { assertKeyMayCall } from "../auth/key-policy";
import { backend } from "../wiring/active-backend";
import { acquireStreamSlot, isStreamOperation, releaseWhenDone } from "../http/limits";
import { asEventStreamError, errorResponse, isEventStreamRequest } from "../http/responses";
import { noteCaller, noteRoute, releaseWithAnswer } from "../logs/request-observation";
import { markStage } from "../observability/request-stages";
import { requestUrl } from "../http/request-url";
import { countTokensHandler } from "./count-tokens";
import { generateContentHandler, streamGenerateContentHandler } from "./generate";
import { getModelHandler, listModelsHandler } from "./models";
import { deleteFileHandler, downloadFileHandler, getFileHandler, listFilesHandler } from "./files";
import {
  cancelBatchHandler,
  createBatchHandler,
  deleteBatchHandler,
  getBatchHandler,
  listBatchesHandler,
} from "./batches";
import { uploadHandler } from "./uploads";
import { forwardedMethod, forwardedOperationName } from "./forwarded-methods";
import {
  chatCompletionsHandler,
  openaiEmbeddingsHandler,
  openaiGetModelHandler,
  openaiListModelsHandler,
} from "./openai";
import { openaiErrorResponse } from "../http/openai-responses";
import {
  asyncBatchEmbedContentHandler,
  batchEmbedContentsHandler,
  embedContentHandler,
} from "./embeddings";
import {
  cancelInteractionHandler,
  createInteractionHandler,
  deleteInteractionHandler,
  getInteractionHandler,
} from "./interactions";
import { interactionErrorResponse } from "../http/interaction-responses";
import {
  createCachedContentHandler,
  deleteCachedContentHandler,
  getCachedContentHandler,
  listCachedContentsHandler,
  updateCachedContentHandler,
} from "./cached-contents";
import { authenticateUpload } from "./uploads";
import { serveApiRequest } from "../emulator/emulated-exchange";
import {
  createFileSearchStoreHandler,
  deleteDocumentHandler,
  deleteFileSearchStoreHandler,
  getDocumentHandler,
  getFileSearchOperationHandler,
  getFileSearchStoreHandler,
  importFileHandler,
  listDocumentsHandler,
  listFileSearchStoresHandler,
} from "./file-search-stores";

/**
 * The API surface: one table from (method, path) to handler, served under `/v1beta` and its
 * aliases `/v1` and `/v1alpha` (and `/upload/...` for uploads, `/download/...` for the bytes
 * of generated files). A path that exists with
 * another method answers 405; anything else 404 (unknown version segments included), both as
 * the service's error body.
 */

interface Route {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Matched against the path after the version segment, e.g. `models/gemini-2.5-flash:countTokens`. */
  pattern: RegExp;
  handler: Handler;
  /** Replaces the usual authentication (upload session URLs are their own credential). */
  authenticate?: (request: Request, options?: AuthenticateOptions) => Promise<Caller>;
  /** Renders any failure once the route matched (the Interactions API has an error body of its own). */
  renderError?: (error: unknown) => Response;
}

/** Any segment: the handlers refuse one that is no model name with the service's 400. */
const MODEL = "(?<model>[^/:]+)";
const STORE = "fileSearchStores/(?<store>[^/:]+)";
const INTERACTION = "interactions/(?<interaction>[^/:]+)";

const API_ROUTES: Route[] = [
  { method: "GET", pattern: /^models$/, handler: listModelsHandler },
  { method: "GET", pattern: new RegExp(`^models/${MODEL}$`), handler: getModelHandler },
  {
    method: "POST",
    pattern: new RegExp(`^models/${MODEL}:countTokens$`),
    handler: countTokensHandler,
  },
  {
    method: "POST",
    pattern: new RegExp(`^models/${MODEL}:generateContent$`),
    handler: generateContentHandler,
  },
  {
    method: "POST",
    pattern: new RegExp(`^models/${MODEL}:streamGenerateContent$`),
    handler: streamGenerateContentHandler,
  },
  {
    method: "POST",
    pattern: new RegExp(`^models/${MODEL}:batchGenerateContent$`),
    handler: createBatchHandler,
  },
  {
    method: "POST",
    pattern: new RegExp(`^models/${MODEL}:embedContent$`),
    handler: embedContentHandler,
  },
  {
    method: "POST",
    pattern: new RegExp(`^models/${MODEL}:batchEmbedContents$`),
    handler: batchEmbedContentsHandler,
  },
  {
    method: "POST",
    pattern: new RegExp(`^models/${MODEL}:asyncBatchEmbedContent$`),
    handler: asyncBatchEmbedContentHandler,
  },
  { method: "GET", pattern: /^batches$/, handler: listBatchesHandler },
  { method: "GET", pattern: /^batches\/(?<batch>[^/:]+)$/, handler: getBatchHandler },
  { method: "DELETE", pattern: /^batches\/(?<batch>[^/:]+)$/, handler: deleteBatchHandler },
  { method: "POST", pattern: /^batches\/(?<batch>[^/:]+):cancel$/, handler: cancelBatchHandler },
  { method: "GET", pattern: /^files$/, handler: listFilesHandler },
  { method: "GET", pattern: /^files\/(?<file>[^/:]+):download$/, handler: downloadFileHandler },
  { method: "GET", pattern: /^files\/(?<file>[^/:]+)$/, handler: getFileHandler },
  { method: "DELETE", pattern: /^files\/(?<file>[^/:]+)$/, handler: deleteFileHandler },
  { method: "POST", pattern: /^cachedContents$/, handler: createCachedContentHandler },
  { method: "GET", pattern: /^cachedContents$/, handler: listCachedContentsHandler },
  {
    method: "GET",
    pattern: /^cachedContents\/(?<cache>[^/:]+)$/,
    handler: getCachedContentHandler,
  },
  {
    method: "PATCH",
    pattern: /^cachedContents\/(?<cache>[^/:]+)$/,
    handler: updateCachedContentHandler,
  },
  {
    method: "DELETE",
    pattern: /^cachedContents\/(?<cache>[^/:]+)$/,
    handler: deleteCachedContentHandler,
  },
  { method: "POST", pattern: /^fileSearchStores$/, handler: createFileSearchStoreHandler },
  { method: "GET", pattern: /^fileSearchStores$/, handler: listFileSearchStoresHandler },
  { method: "GET", pattern: new RegExp(`^${STORE}$`), handler: getFileSearchStoreHandler },
  { method: "DELETE", pattern: new RegExp(`^${STORE}$`), handler: deleteFileSearchStoreHandler },
  { method: "POST", pattern: new RegExp(`^${STORE}:importFile$`), handler: importFileHandler },
  { method: "GET", pattern: new RegExp(`^${STORE}/documents$`), handler: listDocumentsHandler },
  {
    method: "GET",
    pattern: new RegExp(`^${STORE}/documents/(?<document>[^/:]+)$`),
    handler: getDocumentHandler,
  },
  {
    method: "DELETE",
    pattern: new RegExp(`^${STORE}/documents/(?<document>[^/:]+)$`),
    handler: deleteDocumentHandler,
  },
  {
    method: "GET",
    pattern: new RegExp(`^${STORE}/(?<upload>upload/)?operations/(?<operation>[^/:]+)$`),
    handler: getFileSearchOperationHandler,
  },
  ...[
    { method: "POST", pattern: /^interactions$/, handler: createInteractionHandler },
    { method: "GET", pattern: new RegExp(`^${INTERACTION}$`), handler: getInteractionHandler },
    {
      method: "DELETE",
      pattern: new RegExp(`^${INTERACTION}$`),
      handler: deleteInteractionHandler,
    },
    {
      method: "POST",
      pattern: new RegExp(`^${INTERACTION}/cancel$`),
      handler: cancelInteractionHandler,
    },
  ].map((route): Route => ({ ...(route as Route), renderError: interactionErrorResponse })),
];

/** The OpenAI-compatible endpoint's callers send their key as OpenAI's clients do, `Authorization: Bearer`. */
const bearerAuthenticate = (request: Request, options?: AuthenticateOptions) =>
  authenticate(request, { ...options, bearerKey: true });

/** The OpenAI-compatible endpoint (`openai/...`): its errors are the service's body in a list of one. */
const OPENAI_ROUTES: Route[] = [
  {
    method: "POST",
    pattern: /^openai\/chat\/completions$/,
    handler: chatCompletionsHandler,
    authenticate: bearerAuthenticate,
  },
  {
    method: "POST",
    pattern: /^openai\/embeddings$/,
    handler: openaiEmbeddingsHandler,
    authenticate: bearerAuthenticate,
  },
  {
    method: "GET",
    pattern: /^openai\/models$/,
    handler: openaiListModelsHandler,
    authenticate: bearerAuthenticate,
  },
  {
    method: "GET",
    pattern: /^openai\/models\/(?<model>.+)$/,
    handler: openaiGetModelHandler,
    authenticate: bearerAuthenticate,
  },
];

/** `/download/v1beta/...`: where a generated file's `downloadUri` points. */
const DOWNLOAD_ROUTES: Route[] = [
  { method: "GET", pattern: /^files\/(?<file>[^/:]+):download$/, handler: downloadFileHandler },
];

const UPLOAD_ROUTES: Route[] = [
  { method: "POST", pattern: /^files$/, handler: uploadHandler, authenticate: authenticateUpload },
  { method: "PUT", pattern: /^files$/, handler: uploadHandler, authenticate: authenticateUpload },
  {
    method: "POST",
    pattern: new RegExp(`^${STORE}:uploadToFileSearchStore$`),
    handler: uploadHandler,
    authenticate: authenticateUpload,
  },
  {
    method: "PUT",
    pattern: new RegExp(`^${STORE}:uploadToFileSearchStore$`),
    handler: uploadHandler,
    authenticate: authenticateUpload,
  },
];

/** The version segments served: the service's `v1beta`, and `v1` / `v1alpha` as aliases. */
const VERSION_PREFIX = /^\/(?:upload\/|download\/)?(?<version>v1(?:beta|alpha)?)\/(?<rest>.*)$/;

function match(
  routes: Route[],
  method: string,
  rest: string,
): { route: Route; params: Record<string, string> } | "wrong-method" | null {
  let pathKnown = false;
  for (const route of routes) {
    const found = route.pattern.exec(rest);
    if (!found) continue;
    if (route.method !== method) {
      pathKnown = true;
      continue;
    }
    return { route, params: { ...found.groups } };
  }
  return pathKnown ? "wrong-method" : null;
}

function allowedMethods(routes: Route[], rest: string): string {
  return routes
    .filter((route) => route.pattern.test(rest))
    .map((route) => route.method)
    .join(", ");
}

/** Serves one request of the API surface. Never throws: every failure is an error body. */
export async function handleApiRequest(request: Request): Promise<Response> {
  let eventStream = false;
  let renderError = errorResponse;
  try {
    const url = requestUrl(request);
    eventStream = isEventStreamRequest(url);
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      throw ApiError.invalidArgument("The request path is not valid percent-encoding.");
    }
    const version = VERSION_PREFIX.exec(pathname)?.groups;
    const rest = version?.rest ?? "";
    const openai = /^\/v1(?:beta|alpha)?\/openai\//.test(pathname);
    if (openai) renderError = openaiErrorResponse;
    const routes = pathname.startsWith("/upload/")
      ? UPLOAD_ROUTES
      : pathname.startsWith("/download/")
        ? DOWNLOAD_ROUTES
        : openai
          ? OPENAI_ROUTES
          : API_ROUTES;
    let found = match(routes, request.method, rest);
    // A method the surface does not model: the service's 404 (or 405), unless the operator
    // lets the gateway forward it (GATEWAY_FORWARD_METHODS).
    const forwarded =
      (found === null || found === "wrong-method") && version && routes === API_ROUTES
        ? forwardedMethod(request.method, rest)
        : null;
    if (forwarded && version) {
      const method = request.method as Route["method"];
      found = {
        route: { method, pattern: /^/, handler: forwarded },
        params: { version: version.version!, path: rest },
      };
    }
    if (found === null)
      throw ApiError.notFound(`Method not found: ${request.method} ${url.pathname}`);
    if (found === "wrong-method") {
      return renderError(
        new ApiError(
          405,
          "UNIMPLEMENTED",
          `Method ${request.method} is not allowed for ${url.pathname}.`,
        ),
        {
          Allow: allowedMethods(routes, rest),
        },
      );
    }
    renderError = found.route.renderError ?? renderError;
    markStage("routed");
    noteRoute(
      request,
      rest,
      found.params,
      forwarded ? forwardedOperationName(request.method, rest) : undefined,
    );
    // Every request counts against a caller's rate; an upload session's commands against its owner's.
    const caller = await (found.route.authenticate ?? authenticate)(request);
    markStage("authenticated");
    const noting = noteCaller(request, caller);
    if (noting) await noting;
    markStage("caller noted");
    // A managed key may be limited to some models and held to budgets.
    if (found.params.model !== undefined && request.method === "POST")
      assertKeyMayCall(caller, found.params.model);
    const streams = isStreamOperation(rest) || (forwarded && url.searchParams.get("alt") === "sse");
    const release = streams ? await acquireStreamSlot(caller) : null;
    let response: Response;
    try {
      const active = await backend();
      markStage("backend ready");
      response = await serveApiRequest({
        backend: active,
        request,
        url,
        rest,
        ownerId: caller.ownerId,
        renderError,
        handle: (handled) =>
          found.route.handler({
            request: handled,
            url,
            params: found.params,
            caller,
            backend: active,
            signal: request.signal,
            ...(version ? { apiVersion: version.version as ApiVersion } : {}),
          }),
      });
    } catch (error) {
      release?.();
      throw error;
    }
    markStage("handled");
    if (eventStream) asEventStreamError(response);
    // An observed request's slot is released by the observation's watch of the answer.
    if (!release || releaseWithAnswer(request, release)) return response;
    return releaseWhenDone(response, release, request.signal);
  } catch (error) {
    const response = renderError(error);
    return eventStream ? asEventStreamError(response) : response;
  }
}
