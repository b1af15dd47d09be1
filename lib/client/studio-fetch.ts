import { readApiError } from "@/lib/gemini/client/read-api-error";

/** A studio endpoint's JSON answer, or its error (the service's error body) thrown as an ApiError. */
export async function studioFetch<T>(
  url: string,
  init?: { method?: string; body?: unknown },
): Promise<T> {
  const response = await fetch(url, {
    method: init?.method ?? "GET",
    credentials: "same-origin",
    cache: "no-store",
    ...(init?.body !== undefined
      ? { headers: { "Content-Type": "application/json" }, body: JSON.stringify(init.body) }
      : {}),
  });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as T;
}
