/**
 * Conversations exported and imported: the JSON archive (lossless: the tree with the choices
 * shown, settings, every message as stored, attachments' file references and what was known
 * of them) and the Markdown rendering of the branch shown (for reading). The import schema
 * refuses wrong shapes with the field named; `checkArchive` then checks what a schema cannot
 * (ids unique, parents before replies, choices that exist). Safe in the browser.
 */
import { z } from "zod";
import type { Part } from "@/lib/gemini/types";
import {
  conversationSettingsSchema,
  messageIdSchema,
  storedMessageSchema,
  titleSchema,
  type ConversationHead,
  type StoredMessage,
} from "./conversation-schema";

export const ARCHIVE_FORMAT = "genstudio.conversations";
export const ARCHIVE_VERSION = 1;

/** Most conversations and messages one import takes (a bigger export is split). */
export const IMPORT_MAX_CONVERSATIONS = 10_000;
export const IMPORT_MAX_MESSAGES = 200_000;

const timestampSchema = z.iso.datetime({ offset: true });

export const archivedMessageSchema = storedMessageSchema.extend({
  parentId: messageIdSchema.nullable(),
  selectedChildId: messageIdSchema.optional(),
  createdAt: timestampSchema.optional(),
});

export const archivedConversationSchema = z.strictObject({
  /** Its id where it was exported; an import stores it under a new one. */
  id: z.string().max(64).optional(),
  title: titleSchema,
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  settings: conversationSettingsSchema,
  selectedRootId: messageIdSchema.optional(),
  messages: z.array(archivedMessageSchema).max(IMPORT_MAX_MESSAGES),
});

export const conversationArchiveSchema = z.strictObject({
  format: z.literal(ARCHIVE_FORMAT, `format must be "${ARCHIVE_FORMAT}"`),
  version: z.literal(ARCHIVE_VERSION, `version must be ${ARCHIVE_VERSION}`),
  exportedAt: timestampSchema.optional(),
  conversations: z.array(archivedConversationSchema).min(1).max(IMPORT_MAX_CONVERSATIONS),
});

export type ArchivedMessage = z.infer<typeof archivedMessageSchema>;
export type ArchivedConversation = z.infer<typeof archivedConversationSchema>;
export type ConversationArchive = z.infer<typeof conversationArchiveSchema>;

/** What an import answers: what it stored, what it already had, what it could not bring back. */
export interface ImportReport {
  /** Conversations stored anew. */
  imported: { id: string; title: string }[];
  /** Conversations the owner already had, and how many of their messages were added (0: none). */
  alreadyHere: { id: string; title: string; added: number }[];
  /** Files and caches the service no longer has. */
  notRestored: { conversation: string; kind: "file" | "cache"; name: string; reason: string }[];
}

export interface ArchiveProblem {
  field: string;
  description: string;
}

/**
 * What the schema cannot see: message ids unique in their conversation, every parent an
 * earlier message (so the tree has no loop), every choice one of its replies.
 */
export function checkArchive(archive: ConversationArchive): ArchiveProblem[] {
  const problems: ArchiveProblem[] = [];
  let total = 0;
  archive.conversations.forEach((conversation, index) => {
    const at = `conversations[${index}]`;
    total += conversation.messages.length;
    const seen = new Map<string, string | null>();
    conversation.messages.forEach((message, position) => {
      const field = `${at}.messages[${position}]`;
      if (seen.has(message.id))
        problems.push({
          field: `${field}.id`,
          description: `message id ${message.id} is repeated`,
        });
      if (message.parentId !== null && !seen.has(message.parentId))
        problems.push({
          field: `${field}.parentId`,
          description: `parent ${message.parentId} must be a message listed before this one`,
        });
      seen.set(message.id, message.parentId);
    });
    conversation.messages.forEach((message, position) => {
      if (message.selectedChildId && seen.get(message.selectedChildId) !== message.id)
        problems.push({
          field: `${at}.messages[${position}].selectedChildId`,
          description: `${message.selectedChildId} is not a reply to ${message.id}`,
        });
    });
    if (conversation.selectedRootId && seen.get(conversation.selectedRootId) !== null)
      problems.push({
        field: `${at}.selectedRootId`,
        description: `${conversation.selectedRootId} is not a first message of this conversation`,
      });
  });
  if (total > IMPORT_MAX_MESSAGES)
    problems.push({
      field: "conversations",
      description: `at most ${IMPORT_MAX_MESSAGES} messages in one import (this one has ${total})`,
    });
  return problems.slice(0, 20);
}

/** `files/{id}` of each file a conversation's prompts refer to. */
export function fileNamesOf(messages: readonly StoredMessage[]): string[] {
  const names = new Set<string>();
  for (const message of messages)
    for (const part of message.content.parts ?? []) {
      const name = part.fileData && /(?:^|\/)(files\/[A-Za-z0-9_-]+)$/.exec(part.fileData.fileUri);
      if (name) names.add(name[1]!);
    }
  return [...names];
}

/** A message as the archive holds it (what the server set for display only is left out). */
export function archivedMessage(message: StoredMessage): ArchivedMessage {
  const { streaming: _streaming, ...kept } = message;
  return { ...kept, parentId: message.parentId ?? null };
}

function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return "`".repeat(longest + 1);
}

function partMarkdown(part: Part, message: StoredMessage, index: number): string | null {
  if (typeof part.text === "string") return part.thought ? null : part.text;
  const record = message.attachments?.find((item) => item.part === index);
  if (part.fileData || part.inlineData) {
    const type = part.fileData?.mimeType ?? part.inlineData?.mimeType ?? "";
    const name = record?.displayName ?? part.fileData?.fileUri ?? "inline data";
    const details = [type, record?.name, record?.pageCount ? `${record.pageCount} pages` : null]
      .filter(Boolean)
      .join(", ");
    return `> Attachment: ${name} (${details})`;
  }
  const json = JSON.stringify(
    part.functionCall ??
      part.functionResponse ??
      part.executableCode ??
      part.codeExecutionResult ??
      part,
    null,
    2,
  );
  const label = part.functionCall
    ? `Function call ${part.functionCall.name}`
    : part.functionResponse
      ? `Function response ${part.functionResponse.name}`
      : "Part";
  const marker = fence(json);
  return `${label}:\n\n${marker}json\n${json}\n${marker}`;
}

/** The branch shown of a conversation as Markdown, for reading. */
export function conversationMarkdown(
  head: ConversationHead,
  branch: readonly StoredMessage[],
): string {
  const lines = [
    `# ${head.title}`,
    "",
    `Model ${head.settings.model.replace(/^models\//, "")} · created ${head.createdAt} · updated ${head.updatedAt}`,
  ];
  if (head.settings.systemInstruction.trim())
    lines.push(
      "",
      "System instruction:",
      "",
      ...head.settings.systemInstruction.split("\n").map((line) => `> ${line}`),
    );
  for (const message of branch) {
    const parts = message.content.parts
      .map((part, index) => partMarkdown(part, message, index))
      .filter((text): text is string => text !== null && text !== "");
    lines.push(
      "",
      message.role === "user"
        ? "## You"
        : `## ${message.settings?.model.replace(/^models\//, "") ?? "Model"}`,
      "",
    );
    lines.push(parts.length ? parts.join("\n\n") : "_(no text)_");
    if (message.stopped) lines.push("", "_Stopped: the answer above is partial._");
    if (message.interrupted) lines.push("", "_Interrupted: the answer above is partial._");
    if (message.error)
      lines.push(
        "",
        `_Error ${message.error.code} ${message.error.status}: ${message.error.message}_`,
      );
  }
  return `${lines.join("\n")}\n`;
}
