import "server-only";
import { ApiError, parseErrorBody, type ErrorDetail, type RpcStatus } from "@/lib/gemini/api-error";
import { parseInteractionErrorBody } from "@/lib/gemini/interactions/errors";
import type { Scrubber } from "../config/scrubber";

/**
 * Turns what went wrong upstream into the service's error bodies for our clients: upstream
 * error bodies pass through (scrubbed of the key and the upstream's address), transport
 * failures become UNAVAILABLE / DEADLINE_EXCEEDED, and a rejected server key becomes a
 * gateway error rather than "your API key is not valid" (the client's key was fine).
 */

const RPC_BY_HTTP: Record<number, RpcStatus> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  409: "ABORTED",
  412: "FAILED_PRECONDITION",
  413: "INVALID_ARGUMENT",
  429: "RESOURCE_EXHAUSTED",
  499: "CANCELLED",
  500: "INTERNAL",
  501: "UNIMPLEMENTED",
  502: "UNAVAILABLE",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

/**
 * What kind of failure an UpstreamError stands for, which decides whether a retry may help:
 * - `not-sent`: the request provably never reached the upstream (nothing to duplicate);
 * - `status`: the upstream answered with this error status;
 * - `connection-lost`: the connection broke before the answer was complete;
 * - `timeout`: the gateway stopped waiting;
 * - `gateway`: the gateway refused what the upstream sent (redirect, malformed answer, bad credentials).
 */
export type UpstreamFailure = "not-sent" | "status" | "connection-lost" | "timeout" | "gateway";

/** An ApiError that also says what kind of upstream failure it is. */
export class UpstreamError extends ApiError {
  constructor(
    httpStatus: number,
    rpcStatus: RpcStatus,
    message: string,
    readonly failure: UpstreamFailure,
    details?: ErrorDetail[],
  ) {
    super(httpStatus, rpcStatus, message, details);
    this.name = "UpstreamError";
  }
}

function credentialProblem(status: number, error: ApiError): boolean {
  if (status === 401) return true;
  if (status !== 400 && status !== 403) return false;
  const reasons = (error.details ?? []).flatMap((detail) =>
    detail["@type"] === "type.googleapis.com/google.rpc.ErrorInfo" ? [detail.reason] : [],
  );
  if (reasons.some((reason) => typeof reason === "string" && reason.startsWith("API_KEY_")))
    return true;
  return /unregistered callers|API key not valid/i.test(error.message);
}

/** The gateway's own error for an upstream that refused the server's key. */
export function credentialsRejected(): UpstreamError {
  return new UpstreamError(
    502,
    "UNAVAILABLE",
    "The upstream service rejected the gateway's credentials. The operator should check GEMINI_API_KEY.",
    "gateway",
  );
}

/** The error for an upstream answer with status >= 400 (body read as text, possibly empty). */
export function errorFromUpstreamStatus(
  status: number,
  bodyText: string,
  scrub: Scrubber,
): UpstreamError {
  let parsed: ApiError | null = null;
  try {
    const value: unknown = JSON.parse(bodyText);
    // The OpenAI-compatible endpoint wraps its error body in a list of one.
    const body = Array.isArray(value) && value.length === 1 ? (value[0] as unknown) : value;
    parsed = parseErrorBody(body);
    // The Interactions API words its errors with a string code; its status is the HTTP one.
    const interactionError = parsed ? null : parseInteractionErrorBody(body);
    if (interactionError)
      parsed = new ApiError(status, RPC_BY_HTTP[status] ?? "UNKNOWN", interactionError.message);
  } catch {
    parsed = null;
  }
  if (parsed && credentialProblem(status, parsed)) return credentialsRejected();
  const rpcStatus = RPC_BY_HTTP[status] ?? (status >= 500 ? "UNAVAILABLE" : "UNKNOWN");
  if (!parsed) {
    return new UpstreamError(
      status,
      rpcStatus,
      `The upstream service answered HTTP ${status}.`,
      "status",
    );
  }
  const details = parsed.details ? scrub.json(parsed.details, { queryKeys: true }) : undefined;
  return new UpstreamError(
    status,
    parsed.rpcStatus ?? rpcStatus,
    scrub.text(parsed.message),
    "status",
    details,
  );
}

/** A 3xx from the upstream: never followed, so never a way to send the key elsewhere. */
export function redirectRefused(status: number): UpstreamError {
  return new UpstreamError(
    502,
    "UNAVAILABLE",
    `The upstream service answered with a redirect (HTTP ${status}), which the gateway does not follow.`,
    "gateway",
  );
}

export function malformedUpstream(what: string): UpstreamError {
  return new UpstreamError(502, "UNAVAILABLE", `The upstream service sent ${what}.`, "gateway");
}

const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function errorCode(error: unknown): string {
  if (typeof error !== "object" || error === null) return "";
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined ? "" : errorCode(cause);
}

export interface TimeoutSettings {
  connectTimeoutMs: number;
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
}

/**
 * The error for a failed exchange with the upstream (no usable status). Aborts caused by
 * our own client going away are returned unchanged so they stay cancellations.
 */
export function errorFromTransport(error: unknown, timeouts: TimeoutSettings): unknown {
  if (error instanceof ApiError) return error;
  if (error instanceof Error && error.name === "AbortError") return error;
  const code = errorCode(error);
  switch (code) {
    case "UND_ERR_REQ_CONTENT_LENGTH_MISMATCH":
      return new UpstreamError(
        400,
        "INVALID_ARGUMENT",
        "The request body did not match its Content-Length.",
        "gateway",
      );
    case "UND_ERR_ABORTED":
      return Object.assign(new Error("The request was cancelled by the client."), {
        name: "AbortError",
      });
    case "UND_ERR_CONNECT_TIMEOUT":
      return new UpstreamError(
        504,
        "DEADLINE_EXCEEDED",
        `The upstream service did not accept a connection within ${timeouts.connectTimeoutMs} ms.`,
        "not-sent",
      );
    case "UND_ERR_HEADERS_TIMEOUT":
      return new UpstreamError(
        504,
        "DEADLINE_EXCEEDED",
        `The upstream service did not answer within ${timeouts.firstByteTimeoutMs} ms.`,
        "timeout",
      );
    case "UND_ERR_BODY_TIMEOUT":
      return new UpstreamError(
        504,
        "DEADLINE_EXCEEDED",
        `The upstream service stopped sending for ${timeouts.idleTimeoutMs} ms.`,
        "timeout",
      );
  }
  if (NOT_SENT_CODES.has(code)) {
    return new UpstreamError(
      503,
      "UNAVAILABLE",
      "The upstream service is unreachable.",
      "not-sent",
    );
  }
  return new UpstreamError(
    502,
    "UNAVAILABLE",
    "The connection to the upstream service closed before the response was complete.",
    "connection-lost",
  );
}
