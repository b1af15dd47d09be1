/** The files API (`/v1beta/files`) as plain requests from the browser: the parsed answer, or the service's error thrown as an ApiError. */
import { readApiError } from "@/lib/gemini/client/read-api-error";
import type { File as WireFile, ListFilesResponse } from "@/lib/gemini/types";

function filePath(name: string): string {
  const id = name.replace(/^files\//, "");
  return `/v1beta/files/${encodeURIComponent(id)}`;
}

/** `GET /v1beta/files/{id}`: the file with its current state. */
export async function getFileRequest(name: string, signal?: AbortSignal): Promise<WireFile> {
  const response = await fetch(filePath(name), {
    credentials: "same-origin",
    cache: "no-store",
    signal,
  });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as WireFile;
}

/** `DELETE /v1beta/files/{id}`. */
export async function deleteFileRequest(name: string): Promise<void> {
  const response = await fetch(filePath(name), { method: "DELETE", credentials: "same-origin" });
  if (!response.ok) throw await readApiError(response);
}

/** `GET /v1beta/files`: one page of the caller's files. */
export async function listFilesPage(
  pageSize: number,
  pageToken: string | undefined,
  signal: AbortSignal,
): Promise<ListFilesResponse> {
  const query = new URLSearchParams({ pageSize: String(pageSize) });
  if (pageToken) query.set("pageToken", pageToken);
  const response = await fetch(`/v1beta/files?${query}`, {
    credentials: "same-origin",
    cache: "no-store",
    signal,
  });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as ListFilesResponse;
}
