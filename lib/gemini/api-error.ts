/**
 * The one error type of the API surface. Everything that fails on purpose throws an
 * ApiError; `toErrorBody` renders it as the service's `{"error": {...}}` body.
 */

export type RpcStatus =
  | "INVALID_ARGUMENT"
  | "FAILED_PRECONDITION"
  | "OUT_OF_RANGE"
  | "UNAUTHENTICATED"
  | "PERMISSION_DENIED"
  | "NOT_FOUND"
  | "ABORTED"
  | "ALREADY_EXISTS"
  | "RESOURCE_EXHAUSTED"
  | "CANCELLED"
  | "DATA_LOSS"
  | "UNKNOWN"
  | "INTERNAL"
  | "UNIMPLEMENTED"
  | "UNAVAILABLE"
  | "DEADLINE_EXCEEDED";

/** One quota a QuotaFailure names, as the service spells it. */
export interface QuotaViolation {
  quotaMetric: string;
  quotaId: string;
  /** What the quota is counted per (`{"location": "global", "model": "gemini-2.5-flash"}`). */
  quotaDimensions?: Record<string, string>;
  /** The limit, as a decimal string. */
  quotaValue: string;
}

export type ErrorDetail =
  | {
      "@type": "type.googleapis.com/google.rpc.ErrorInfo";
      reason: string;
      domain: string;
      metadata?: Record<string, string>;
    }
  | { "@type": "type.googleapis.com/google.rpc.BadRequest"; fieldViolations: FieldViolation[] }
  | { "@type": "type.googleapis.com/google.rpc.RetryInfo"; retryDelay: string }
  | {
      "@type": "type.googleapis.com/google.rpc.QuotaFailure";
      violations: QuotaViolation[];
    }
  | {
      "@type": "type.googleapis.com/google.rpc.Help";
      links: { description: string; url: string }[];
    }
  | { "@type": "type.googleapis.com/google.rpc.LocalizedMessage"; locale: string; message: string };

export interface FieldViolation {
  field: string;
  description: string;
}

export interface ErrorBody {
  error: { code: number; message: string; status: RpcStatus | string; details?: unknown[] };
}

/** Marks ApiErrors so every copy of this module recognises them (see `Symbol.hasInstance`). */
const API_ERROR_BRAND = Symbol.for("genstudio.ApiError");

export class ApiError extends Error {
  readonly [API_ERROR_BRAND] = true;

  constructor(
    readonly httpStatus: number,
    readonly rpcStatus: RpcStatus,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = "ApiError";
  }

  /**
   * `error instanceof ApiError` holds for ApiErrors made by another copy of this module: a
   * server build can hold two (the instrumentation bundle that creates the backend at start-up,
   * and the route bundles that render its errors). Subclasses keep the usual prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== ApiError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return (
      typeof value === "object" &&
      value !== null &&
      (value as { [API_ERROR_BRAND]?: unknown })[API_ERROR_BRAND] === true
    );
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.httpStatus,
        message: this.message,
        status: this.rpcStatus,
        ...(this.details?.length ? { details: this.details } : {}),
      },
    };
  }

  static invalidArgument(message: string, fieldViolations?: FieldViolation[]): ApiError {
    const details: ErrorDetail[] | undefined = fieldViolations?.length
      ? [{ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations }]
      : undefined;
    return new ApiError(400, "INVALID_ARGUMENT", message, details);
  }

  static notFound(message: string): ApiError {
    return new ApiError(404, "NOT_FOUND", message);
  }

  static permissionDenied(message: string): ApiError {
    return new ApiError(403, "PERMISSION_DENIED", message);
  }

  static resourceExhausted(message: string, retryAfterSeconds: number): ApiError {
    return new ApiError(429, "RESOURCE_EXHAUSTED", message, [
      {
        "@type": "type.googleapis.com/google.rpc.RetryInfo",
        retryDelay: `${Math.max(1, Math.ceil(retryAfterSeconds))}s`,
      },
    ]);
  }

  /**
   * A quota is used up: the service's 429 RESOURCE_EXHAUSTED, its "You exceeded your current
   * quota" message with the metric and limit, and a QuotaFailure spelled as the service's
   * (quotaMetric, quotaId, quotaValue). Waiting alone does not help, so no RetryInfo.
   */
  static quotaExceeded(violation: QuotaViolation, advice: string): ApiError {
    return new ApiError(
      429,
      "RESOURCE_EXHAUSTED",
      `You exceeded your current quota. ${advice}\n* Quota exceeded for metric: ${violation.quotaMetric}, limit: ${violation.quotaValue}`,
      [{ "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [violation] }],
    );
  }

  static internal(
    message = "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
  ): ApiError {
    return new ApiError(500, "INTERNAL", message);
  }
}

/** Reads a service error body (ours or the upstream's) back into an ApiError; null when it is not one. */
export function parseErrorBody(value: unknown): ApiError | null {
  if (typeof value !== "object" || value === null || !("error" in value)) return null;
  const error = (value as { error: unknown }).error;
  if (typeof error !== "object" || error === null) return null;
  const { code, message, status, details } = error as Record<string, unknown>;
  if (typeof code !== "number" || typeof message !== "string") return null;
  return new ApiError(
    code,
    (typeof status === "string" ? status : "UNKNOWN") as RpcStatus,
    message,
    Array.isArray(details) ? (details as ErrorDetail[]) : undefined,
  );
}

/** The numeric google.rpc.Code of each status, as google.rpc.Status carries it in operations. */
export const RPC_CODES: Readonly<Record<RpcStatus, number>> = {
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
};

/** An error as a google.rpc.Status (`{code, message}`), the form a batch's per-request errors take. */
export function rpcStatusOf(error: ApiError): { code: number; message: string } {
  return { code: RPC_CODES[error.rpcStatus] ?? RPC_CODES.UNKNOWN, message: error.message };
}
