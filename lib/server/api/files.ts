import "server-only";
import { FILES_PAGE } from "@/lib/engine/files/file-service";
import { readPageQuery } from "../http/page-query";
import { jsonResponse } from "../http/responses";
import type { RequestContext } from "./request-context";
import { requestOrigin } from "../http/upload-protocol";

export async function listFilesHandler(context: RequestContext): Promise<Response> {
  const query = readPageQuery(context.url, FILES_PAGE);
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
