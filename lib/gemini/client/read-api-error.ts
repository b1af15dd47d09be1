import { ApiError, parseErrorBody } from "../api-error";
import { retryInfoDelayMs, retryInfoFromHeader } from "../retry-info";

/**
 * The ApiError carried by a failed response; a non-JSON failure becomes one naming the status.
 * A Retry-After header the body has no RetryInfo for is kept as one, so a Retry can wait for it.
 */
export async function readApiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => "");
  const error = errorOf(response, text);
  const header = retryInfoFromHeader(response.headers.get("retry-after"));
  if (!header || retryInfoDelayMs(error.details) !== null) return error;
  return new ApiError(error.httpStatus, error.rpcStatus, error.message, [
    ...(error.details ?? []),
    header,
  ]);
}

function errorOf(response: Response, text: string): ApiError {
  try {
    const parsed = parseErrorBody(JSON.parse(text));
    if (parsed) return parsed;
  } catch {
    // not JSON: fall through
  }
  return new ApiError(
    response.status,
    "UNKNOWN",
    text.trim().slice(0, 300) || `HTTP ${response.status}`,
  );
}
