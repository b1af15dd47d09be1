import "server-only";
import type { z } from "zod";
import { ApiError } from "@/lib/gemini/api-error";
import { readJsonBody } from "../http/request-body";
import { validated } from "./conversation-requests";

/**
 * The body of a studio endpoint of people, keys and sessions: JSON only (a form or `text/plain`
 * could be sent by another site's page without a preflight), small, checked with the route's
 * schema (violations named by field).
 */
export async function readStudioJson<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  maxBytes = 64 * 1024,
): Promise<z.infer<Schema>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type))
    throw new ApiError(415, "INVALID_ARGUMENT", "Send this request as application/json.");
  return validated(await readJsonBody(request, maxBytes), schema);
}
