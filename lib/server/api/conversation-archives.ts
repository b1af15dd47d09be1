import "server-only";
import {
  checkArchive,
  conversationArchiveSchema,
  type ConversationArchive,
} from "@/lib/studio/conversation-archive";
import { ApiError } from "@/lib/gemini/api-error";
import type { ImportReport } from "@/lib/studio/conversation-archive";
import type { ConversationStore } from "@/lib/db/stores/conversation-store";
import {
  archiveJson,
  archiveMarkdown,
  attachmentDisposition,
  downloadName,
  missingReferences,
  storeArchive,
} from "../chat/conversation-transfer";
import { backend } from "../wiring/active-backend";
import { jsonResponse, streamedJsonResponse, streamedTextResponse } from "../http/responses";
import { requestOrigin } from "../http/upload-protocol";
import { conversationRoom, notFound } from "./conversation-requests";
import { invalid, studioEndpoint, type StudioCall } from "./studio-endpoint";

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

function exportResponse(
  conversations: ConversationStore,
  ownerId: string,
  ids: string[],
  format: ExportFormat,
  title: string | null,
): Response {
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
const exportOne = studioEndpoint(
  async ({ request, caller, stores: { conversations } }, id: string) => {
    const format = exportFormat(request);
    const head = await conversations.getHead(caller.ownerId, id);
    if (!head) throw notFound(id);
    return exportResponse(conversations, caller.ownerId, [id], format, head.title);
  },
);

/** Every conversation of the caller as one download. */
const exportAll = studioEndpoint(async ({ request, caller, stores: { conversations } }) => {
  const format = exportFormat(request);
  const ids = await conversations.ids(caller.ownerId);
  return exportResponse(conversations, caller.ownerId, ids, format, null);
});

/** The archive in the body, with a 413 that says how to import a bigger export. */
async function archiveBody(body: StudioCall["body"]): Promise<ConversationArchive> {
  try {
    return await body(conversationArchiveSchema, IMPORT_MAX_BYTES);
  } catch (error) {
    if (error instanceof ApiError && error.httpStatus === 413)
      throw new ApiError(
        413,
        "INVALID_ARGUMENT",
        `An import is at most ${IMPORT_MAX_BYTES / (1024 * 1024)} MiB of JSON: export fewer conversations at a time and import them one file after another.`,
      );
    throw error;
  }
}

/**
 * Imports a JSON archive of ours: all its conversations or none (a wrong shape, a broken tree
 * or an oversized body is refused with what is wrong, and nothing is stored). Answers the new
 * conversations and what could not be brought back (files and caches the service dropped).
 */
const importArchive = studioEndpoint(
  async ({ request, caller, stores: { conversations }, body }) => {
    const archive = await archiveBody(body);
    const problems = checkArchive(archive);
    if (problems.length) throw invalid(problems);
    const notRestored = await missingReferences(
      await backend(),
      caller,
      archive,
      requestOrigin(request),
      request.signal,
    );
    const outcomes = await storeArchive(
      conversations,
      caller.ownerId,
      archive,
      conversationRoom(archive.conversations),
    );
    const report: ImportReport = { imported: [], alreadyHere: [], notRestored };
    outcomes.forEach(({ id, added }, index) => {
      const title = archive.conversations[index]!.title;
      if (added === null) report.imported.push({ id, title });
      else report.alreadyHere.push({ id, title, added });
    });
    return jsonResponse(report);
  },
);

/** The export and import handlers of the route files under app/api/conversations. */
export const archiveHandlers = { exportOne, exportAll, importArchive };
