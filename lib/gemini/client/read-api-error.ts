import { ApiError, parseErrorBody } from "../api-error";

/** The ApiError carried by a failed response; a non-JSON failure becomes one naming the status. */
export async function readApiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => "");
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
