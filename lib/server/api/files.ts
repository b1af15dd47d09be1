import "server-only";
import { downloadHeaders } from "../http/download-headers";
import { ApiError } from "@/lib/gemini/api-error";
import { readPageQuery } from "../http/page-query";
import { jsonResponse } from "../http/responses";
import type { RequestContext } from "./request-context";
import { requestOrigin } from "../http/upload-protocol";

export async function listFilesHandler(context: RequestContext): Promise<Response> {
  const query = readPageQuery(context.url);
  return jsonResponse(
    await context.backend.listFiles(query, { ...context, origin: requestOrigin(context.request) }),
  );
}

export async function getFileHandler(context: RequestContext): Promise<Response> {
  return jsonResponse(
    await context.backend.getFile(`files/${context.params.file}`, {
      ...context,
      origin: requestOrigin(context.request),
    }),
  );
}

export async function deleteFileHandler(context: RequestContext): Promise<Response> {
  await context.backend.deleteFile(`files/${context.params.file}`, context);
  return jsonResponse({});
}

/**
 * `GET files/{id}:download?alt=media` (under `/download/v1beta/...` too): the bytes of a
 * generated file, streamed as they are read, with its MIME type.
 */
export async function downloadFileHandler(context: RequestContext): Promise<Response> {
  if (context.url.searchParams.get("alt") !== "media") {
    throw ApiError.invalidArgument(
      "A file download needs alt=media: the file's metadata is at GET files/{id}.",
      [{ field: "alt", description: "must be media" }],
    );
  }
  const download = await context.backend.downloadFile(`files/${context.params.file}`, context);
  const headers = downloadHeaders(download.mimeType, context.params.file!, download.sizeBytes);
  return new Response(download.body, { status: 200, headers });
}
