import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { UnmodelledCall } from "@/lib/gemini/backend/contract";
import { serverEnv } from "../config/env";
import { forwardRuleFor, type ForwardMethod } from "../config/forward-methods";
import { readOperationBody } from "../http/request-body";
import type { Handler, RequestContext } from "./request-context";

/**
 * Methods the API surface does not model that the operator lets the gateway forward
 * (GATEWAY_FORWARD_METHODS, lib/server/config/forward-methods.ts). Without a matching rule, or
 * against the local engine, such a method stays the service's 404.
 */

/** `POST {version}/{path}` forwarded as the client called it (the body read for forwarding). */
export async function forwardedMethodHandler(context: RequestContext): Promise<Response> {
  const forward = context.backend.forwardUnmodelled;
  if (!forward) throw ApiError.notFound(`Method not found: ${context.request.method}`);
  await readOperationBody(context, "unmodelled");
  const call: UnmodelledCall = {
    method: context.request.method as ForwardMethod,
    version: context.params.version!,
    path: context.params.path!,
    query: [...context.url.searchParams].filter(([name]) => name !== "key"),
  };
  const answer = await forward.call(context.backend, call, context);
  return new Response(answer.body, {
    status: answer.status,
    headers: answer.contentType ? { "content-type": answer.contentType } : {},
  });
}

/** The handler for `method` on `path` (after the version segment) when the gateway may forward it. */
export function forwardedMethod(method: string, path: string): Handler | null {
  const env = serverEnv();
  if (env.mode !== "upstream") return null;
  return forwardRuleFor(env.forwardRules, method, path) ? forwardedMethodHandler : null;
}
