import "server-only";
import type { Backend, Caller } from "@/lib/gemini/backend/contract";

/** What every API handler receives: the request, its matched path parameters, the caller and the backend. */
export interface RequestContext {
  request: Request;
  url: URL;
  /** Named groups of the matched path pattern, URL-decoded. */
  params: Record<string, string>;
  caller: Caller;
  backend: Backend;
  signal: AbortSignal;
}

export type Handler = (context: RequestContext) => Promise<Response>;
