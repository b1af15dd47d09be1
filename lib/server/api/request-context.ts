import "server-only";
import type { ApiVersion } from "@/lib/gemini/api-version-fields";
import type { Backend, Caller, ReceivedBody } from "@/lib/gemini/backend/contract";

/** What every API handler receives: the request, its matched path parameters, the caller and the backend. */
export interface RequestContext {
  request: Request;
  url: URL;
  /** Named groups of the matched path pattern, URL-decoded. */
  params: Record<string, string>;
  caller: Caller;
  backend: Backend;
  signal: AbortSignal;
  /** The body as received, once readOperationBody has read it for a backend that forwards. */
  received?: ReceivedBody;
  /** The API version the path named (`v1beta`; `v1` and `v1alpha` are served alike otherwise). */
  apiVersion?: ApiVersion;
}

export type Handler = (context: RequestContext) => Promise<Response>;
