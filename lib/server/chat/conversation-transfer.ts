import "server-only";
import type { QuotaAdmission } from "@/lib/db/stores/quota-admission";
import type { Backend, Caller } from "@/lib/gemini/backend/contract";
import { ApiError } from "@/lib/gemini/api-error";
import type { ConversationStore } from "@/lib/db/stores/conversation-store";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  archivedMessage,
  conversationMarkdown,
  fileNamesOf,
  type ConversationArchive,
} from "@/lib/studio/conversation-archive";

/**
 * Export and import of conversations. An export is written as it is read (a conversation, then
 * a message at a time), so a large one is never held whole. An import stores everything or
 * nothing, and reports what the service no longer has (files past their 48 hours, caches gone).
 */

/** Characters gathered before a piece of an export is handed on. */
const PIECE_CHARACTERS = 256 * 1024;

/** The owner's conversations `ids` as one JSON archive, piece by piece. */
export async function* archiveJson(
  conversations: ConversationStore,
  ownerId: string,
  ids: readonly string[],
): AsyncGenerator<string> {
  yield `{"format":${JSON.stringify(ARCHIVE_FORMAT)},"version":${ARCHIVE_VERSION},"exportedAt":${JSON.stringify(new Date().toISOString())},"conversations":[`;
  let first = true;
  for (const id of ids) {
    const head = await conversations.getHead(ownerId, id);
    if (!head) continue; // deleted while the export was written
    const opening = JSON.stringify({
      id: head.id,
      title: head.title,
      createdAt: head.createdAt,
      updatedAt: head.updatedAt,
      settings: head.settings,
      ...(head.selectedRootId ? { selectedRootId: head.selectedRootId } : {}),
    });
    let piece = `${first ? "" : ","}${opening.slice(0, -1)},"messages":[`;
    first = false;
    let sequence = 0;
    for (
      let next = await conversations.messageAfter(ownerId, id, 0);
      next;
      next = await conversations.messageAfter(ownerId, id, sequence)
    ) {
      piece += `${sequence === 0 ? "" : ","}${JSON.stringify(archivedMessage(next.message))}`;
      sequence = next.sequence;
      if (piece.length >= PIECE_CHARACTERS) {
        yield piece;
        piece = "";
      }
    }
    yield `${piece}]}`;
  }
  yield "]}\n";
}

/** The branch shown of each conversation as Markdown, one after another. */
export async function* archiveMarkdown(
  conversations: ConversationStore,
  ownerId: string,
  ids: readonly string[],
): AsyncGenerator<string> {
  let first = true;
  for (const id of ids) {
    const head = await conversations.getHead(ownerId, id);
    const branch = head && (await conversations.currentBranch(ownerId, id));
    if (!head || !branch) continue;
    yield `${first ? "" : "\n---\n\n"}${conversationMarkdown(head, branch)}`;
    first = false;
  }
}

/** A file name for a download: the title's words, or a fallback. */
export function downloadName(title: string | null, extension: "json" | "md"): string {
  const words = (title ?? "")
    .normalize("NFKD")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .toLowerCase();
  const stamp = new Date().toISOString().slice(0, 10);
  return `${words || "genstudio-conversations"}-${stamp}.${extension}`;
}

/** Content-Disposition of a download, ASCII fallback plus the UTF-8 name. */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export interface NotRestored {
  conversation: string;
  kind: "file" | "cache";
  name: string;
  reason: string;
}

/** References checked at most per import (each is a request to the backend). */
const CHECKED_REFERENCES = 500;
const CHECKS_AT_ONCE = 8;

/**
 * Which files and caches the archive refers to that the caller can no longer use: the
 * messages are imported anyway (the transcript says the file expired), and the person is told.
 */
export async function missingReferences(
  backend: Backend,
  caller: Caller,
  archive: ConversationArchive,
  origin: string,
  signal: AbortSignal,
): Promise<NotRestored[]> {
  const references: { kind: "file" | "cache"; name: string; conversations: Set<string> }[] = [];
  const byName = new Map<string, (typeof references)[number]>();
  const add = (kind: "file" | "cache", name: string, title: string) => {
    let entry = byName.get(name);
    if (!entry) {
      entry = { kind, name, conversations: new Set() };
      byName.set(name, entry);
      references.push(entry);
    }
    entry.conversations.add(title);
  };
  for (const conversation of archive.conversations) {
    for (const name of fileNamesOf(conversation.messages)) add("file", name, conversation.title);
    if (conversation.settings.cachedContent)
      add("cache", conversation.settings.cachedContent, conversation.title);
  }
  const results: NotRestored[] = [];
  const context = { caller, signal, origin };
  let next = 0;
  async function worker() {
    while (next < references.length && next < CHECKED_REFERENCES) {
      const reference = references[next++]!;
      let reason: string | null = null;
      try {
        if (reference.kind === "file") await backend.getFile(reference.name, context);
        else await backend.getCachedContent(reference.name, context);
      } catch (error) {
        reason =
          error instanceof ApiError && [403, 404].includes(error.httpStatus)
            ? reference.kind === "file"
              ? "expired or deleted: the service keeps files 48 hours"
              : "expired or deleted"
            : "could not be checked";
      }
      if (reason)
        for (const conversation of reference.conversations)
          results.push({ conversation, kind: reference.kind, name: reference.name, reason });
    }
  }
  await Promise.all(Array.from({ length: CHECKS_AT_ONCE }, worker));
  for (const reference of references.slice(CHECKED_REFERENCES))
    for (const conversation of reference.conversations)
      results.push({
        conversation,
        kind: reference.kind,
        name: reference.name,
        reason: "not checked (too many references in one import)",
      });
  return results;
}

/** Stores an archive's conversations (all or none); their new ids, in order. */
export function storeArchive(
  conversations: ConversationStore,
  ownerId: string,
  archive: ConversationArchive,
  admission?: QuotaAdmission,
): Promise<string[]> {
  return conversations.importConversations(
    ownerId,
    archive.conversations.map((conversation) => ({
      title: conversation.title,
      settings: conversation.settings,
      createdAt: Date.parse(conversation.createdAt),
      updatedAt: Date.parse(conversation.updatedAt),
      ...(conversation.selectedRootId ? { selectedRootId: conversation.selectedRootId } : {}),
      messages: conversation.messages,
    })),
    admission,
  );
}
