import { ApiError } from "@/lib/gemini/api-error";
import { messageErrorOf, type MessageError } from "@/lib/studio/message-error";

/** An error as an answer's error (and a notice's words); anything but the server's error is a failure to reach it. */
export function errorSummary(error: unknown): MessageError {
  if (error instanceof ApiError) return messageErrorOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 0,
    message: `Could not reach the studio server: ${message}`,
    status: "UNAVAILABLE",
  };
}
