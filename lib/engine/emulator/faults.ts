/**
 * The failures a scenario can script: an error in the service's body (any code, status,
 * message and details), and the two that are no error body at all, a bare HTTP status and a
 * connection closed without an answer. The last two travel as a TransportFault, thrown like
 * an ApiError, which the HTTP layer renders (lib/server/emulator/fault-response.ts) and the
 * stream writer turns into a cut connection mid-stream.
 */
import { ApiError, type ErrorDetail, type RpcStatus } from "@/lib/gemini/api-error";
import type { ScriptedAnswer } from "./scenario-schema";

/** The service's usual RPC status and words for an HTTP code. */
const USUAL: Record<number, { status: RpcStatus; message: string }> = {
  400: { status: "INVALID_ARGUMENT", message: "Request contains an invalid argument." },
  401: {
    status: "UNAUTHENTICATED",
    message: "Request had invalid authentication credentials.",
  },
  403: {
    status: "PERMISSION_DENIED",
    message: "The caller does not have permission",
  },
  404: { status: "NOT_FOUND", message: "Requested entity was not found." },
  409: { status: "ABORTED", message: "The operation was aborted." },
  429: {
    status: "RESOURCE_EXHAUSTED",
    message: "Resource has been exhausted (e.g. check quota).",
  },
  499: { status: "CANCELLED", message: "The operation was cancelled." },
  500: {
    status: "INTERNAL",
    message:
      "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
  },
  501: {
    status: "UNIMPLEMENTED",
    message: "Operation is not implemented, or supported, or enabled.",
  },
  503: { status: "UNAVAILABLE", message: "The model is overloaded. Please try again later." },
  504: {
    status: "DEADLINE_EXCEEDED",
    message: "Deadline expired before operation could complete.",
  },
};

/** The ApiError a scripted `error` stands for, with the usual status and words where it gives none. */
export function scriptedError(error: NonNullable<ScriptedAnswer["error"]>): ApiError {
  const usual = USUAL[error.code] ?? (error.code >= 500 ? USUAL[500]! : USUAL[400]!);
  return new ApiError(
    error.code,
    (error.status ?? usual.status) as RpcStatus,
    error.message ?? usual.message,
    error.details as ErrorDetail[] | undefined,
  );
}

/** The error a stream told to fail after N chunks ends with when its answer names none. */
export function defaultStreamError(): ApiError {
  return scriptedError({ code: 503 });
}

const TRANSPORT_FAULT_BRAND = Symbol.for("genstudio.TransportFault");

/** A failure below the service's error body: a bare status, or the connection closed. */
export class TransportFault extends Error {
  readonly [TRANSPORT_FAULT_BRAND] = true;

  constructor(
    readonly fault: { kind: "status"; httpStatus: number; bodyText: string } | { kind: "reset" },
  ) {
    super(
      fault.kind === "reset" ? "connection reset by a scenario" : `bare HTTP ${fault.httpStatus}`,
    );
    this.name = "TransportFault";
  }

  /** True for TransportFaults made by any copy of this module (the server build may hold two). */
  static is(value: unknown): value is TransportFault {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as { [TRANSPORT_FAULT_BRAND]?: unknown })[TRANSPORT_FAULT_BRAND] === true
    );
  }
}
