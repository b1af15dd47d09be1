/** Small helpers for raw API calls in specs. */
import { GoogleGenAI } from "@google/genai";
import { DEVELOPMENT_KEY, localServer, type ServerInfo } from "./servers";

export function sdkClient(
  server: ServerInfo = localServer,
  apiKey: string = DEVELOPMENT_KEY,
): GoogleGenAI {
  return new GoogleGenAI({ apiKey, httpOptions: { baseUrl: server.baseUrl } });
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** fetch with the development key (unless `key: null`), reading the body as JSON when it is. */
export async function api(
  path: string,
  options: {
    method?: string;
    body?: unknown;
    key?: string | null;
    server?: ServerInfo;
    headers?: Record<string, string>;
  } = {},
): Promise<RawResponse> {
  const server = options.server ?? localServer;
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? DEVELOPMENT_KEY : options.key;
  if (key !== null) headers["x-goog-api-key"] = key;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: options.method ?? "GET",
    headers,
    body,
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/**
 * Uploads `bytes` with the raw resumable protocol (a start, then one `upload, finalize`) to
 * the server at `baseUrl` as `key`; answers the File of the final answer.
 */
export async function uploadResumable(
  baseUrl: string,
  key: string,
  bytes: Buffer,
  options: { contentType: string; displayName?: string },
): Promise<{ name: string; uri: string; state?: string }> {
  const start = await fetch(`${baseUrl}/upload/v1beta/files`, {
    method: "POST",
    headers: {
      "x-goog-api-key": key,
      "content-type": "application/json",
      "x-goog-upload-protocol": "resumable",
      "x-goog-upload-command": "start",
      "x-goog-upload-header-content-length": String(bytes.length),
      "x-goog-upload-header-content-type": options.contentType,
    },
    body: JSON.stringify({ file: { displayName: options.displayName ?? "upload" } }),
  });
  if (start.status !== 200) throw new Error(`upload start: ${start.status} ${await start.text()}`);
  const final = await fetch(start.headers.get("x-goog-upload-url")!, {
    method: "POST",
    headers: { "x-goog-upload-command": "upload, finalize", "x-goog-upload-offset": "0" },
    body: new Uint8Array(bytes),
  });
  const text = await final.text();
  if (final.status !== 200) throw new Error(`upload: ${final.status} ${text}`);
  return (JSON.parse(text) as { file: { name: string; uri: string; state?: string } }).file;
}
