import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import { countRequest } from "../http/limits";
import { authenticate, type AuthenticateOptions } from "./authenticate";

/** Whatever a keyless request to an unknown upload session is: no one, and nothing is done for it. */
const NO_SESSION_CALLER: Caller = { ownerId: "upload-session" };

/**
 * Authentication for the upload surface. Starting an upload needs a key or session like any
 * call. An upload session URL is itself the credential (its id is long and random, as the
 * service's): its commands (upload, finalize, query, cancel) may come without a key, as the
 * spec's second step and the service's own curl examples send them. Each counts against the
 * rate of the session's owner, whoever sends it, so a session URL is no way around the
 * limit. A key that is sent must still be valid. A keyless request naming no live session
 * has no identity: it is answered the backend's unknown-session error and reaches nothing
 * further (never the upstream). `uploadSessionOwner` is the backend's lookup of a session's owner.
 */
export async function authenticateUpload(
  request: Request,
  uploadSessionOwner: (uploadId: string) => Promise<string | null>,
  options: AuthenticateOptions = {},
): Promise<Caller> {
  const uploadId = new URL(request.url).searchParams.get("upload_id");
  if (uploadId === null) return authenticate(request, options);
  const owner = await uploadSessionOwner(uploadId);
  let presented: Caller | null = null;
  try {
    presented = await authenticate(request, {
      countRequest: owner === null && options.countRequest !== false,
    });
  } catch (error) {
    if (!(error instanceof ApiError && error.httpStatus === 403)) throw error;
  }
  if (owner === null) return presented ?? NO_SESSION_CALLER;
  if (options.countRequest !== false) await countRequest(owner);
  return { ownerId: owner };
}
