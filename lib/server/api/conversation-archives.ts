import "server-only";
import {
  checkArchive,
  conversationArchiveSchema,
  type ConversationArchive,
} from "@/lib/studio/conversation-archive";
import { ApiError } from "@/lib/gemini/api-error";
import { authenticate } from "../auth/authenticate";
import {
  archiveJson,
  archiveMarkdown,
  attachmentDisposition,
  downloadName,
  missingReferences,
  storeArchive,
} from "../chat/conversation-transfer";
import { backend } from "../config/active-backend";
import { dataStores } from "../persistence/database-handle";
import { readJsonBody } from "../http/request-body";
import {
  errorResponse,
  jsonResponse,
  streamedJsonResponse,
  streamedTextResponse,
} from "../http/responses";
import { requestOrigin } from "../http/upload-protocol";
import {
  conversationRoom,
  assertJson,
  invalid,
  notFound,
  validated,
} from "./conversation-requests";

/**
 * `/api/conversations/export` and `/import`: conversations out as a download (JSON, lossless,
 * or Markdown, the branch shown), streamed; and back in from a JSON archive, all or none.
 */

/** Largest import: a bigger export is split (fewer conversations at a time). */
export const IMPORT_MAX_BYTES = 64 * 1024 * 1024;

type ExportFormat = "json" | "markdown";

function exportFormat(request: Request): ExportFormat {
  const format = new URL(request.url).searchParams.get("format") ?? "json";
  if (format !== "json" && format !== "markdown")
    throw invalid([
      {
        field: "format",
        description: `must be "json" or "markdown", not "${format.slice(0, 40)}"`,
      },
    ]);
  return format;
}

async function exportResponse(
  ownerId: string,
  ids: string[],
  format: ExportFormat,
  title: string | null,
): Promise<Response> {
  const { conversations } = await dataStores();
  const disposition = {
    "Content-Disposition": attachmentDisposition(
      downloadName(title, format === "json" ? "json" : "md"),
    ),
  };
  return format === "json"
    ? streamedJsonResponse(archiveJson(conversations, ownerId, ids), disposition)
    : streamedTextResponse(
        archiveMarkdown(conversations, ownerId, ids),
        "text/markdown; charset=UTF-8",
        disposition,
      );
}

/** One conversation as a download: JSON (lossless, every version) or Markdown (the branch shown). */
async function exportOne(request: Request, id: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const format = exportFormat(request);
    const head = await (await dataStores()).conversations.getHead(caller.ownerId, id);
    if (!head) throw notFound(id);
    return await exportResponse(caller.ownerId, [id], format, head.title);
  } catch (error) {
    return errorResponse(error);
  }
}

/** Every conversation of the caller as one download. */
async function exportAll(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const format = exportFormat(request);
    const ids = await (await dataStores()).conversations.ids(caller.ownerId);
    return await exportResponse(caller.ownerId, ids, format, null);
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * Imports a JSON archive of ours: all its conversations or none (a wrong shape, a broken tree
 * or an oversized body is refused with what is wrong, and nothing is stored). Answers the new
 * conversations and what could not be brought back (files and caches the service dropped).
 */
async function importArchive(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    assertJson(request);
    let body: unknown;
    try {
      body = await readJsonBody(request, IMPORT_MAX_BYTES);
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus === 413)
        throw new ApiError(
          413,
          "INVALID_ARGUMENT",
          `An import is at most ${IMPORT_MAX_BYTES / (1024 * 1024)} MiB of JSON: export fewer conversations at a time and import them one file after another.`,
        );
      throw error;
    }
    const archive = validated(body, conversationArchiveSchema) as ConversationArchive;
    const problems = checkArchive(archive);
    if (problems.length) throw invalid(problems);
    const notRestored = await missingReferences(
      await backend(),
      caller,
      archive,
      requestOrigin(request),
      request.signal,
    );
    const ids = await storeArchive(
      (await dataStores()).conversations,
      caller.ownerId,
      archive,
      conversationRoom(archive.conversations),
    );
    return jsonResponse({
      imported: ids.map((id, index) => ({ id, title: archive.conversations[index]!.title })),
      notRestored,
    });
  } catch (error) {
    return errorResponse(error);
  }
}

/** The export and import handlers of the route files under app/api/conversations. */
export const archiveHandlers = { exportOne, exportAll, importArchive };
