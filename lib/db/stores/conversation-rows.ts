import type {
  ConversationHead,
  ConversationSettings,
  ConversationSummary,
  StoredMessage,
} from "@/lib/studio/conversation-schema";

/**
 * The conversations and conversation_messages rows as read, and what the API makes of them:
 * a summary or head of a conversation, a stored message (streaming or interrupted by its lease).
 */

export interface ConversationRow {
  /** The row's own key, which its messages refer to; never shown (ids are the owner's). */
  internal_id: string;
  /** The id the owner knows it by: unique per owner, not across owners. */
  id: string;
  owner_id: string;
  title: string;
  settings_json: string;
  created_at: number;
  updated_at: number;
  selected_root_id: string | null;
  deleted_at: number | null;
}

export interface MessageRow {
  sequence: number;
  id: string;
  parent_id: string | null;
  selected_child_id: string | null;
  message_json: string;
  generating_until: number | null;
  created_at: number;
}

export const CONVERSATION_COLUMNS =
  "internal_id, id, owner_id, title, settings_json, created_at, updated_at, selected_root_id, deleted_at";
export const MESSAGE_COLUMNS =
  "sequence, id, parent_id, selected_child_id, message_json, generating_until, created_at";

export function summaryOf(row: ConversationRow): ConversationSummary {
  return {
    id: row.id,
    title: row.title,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
  };
}

export function headOf(row: ConversationRow): ConversationHead {
  const head: ConversationHead = {
    ...summaryOf(row),
    settings: JSON.parse(row.settings_json) as ConversationSettings,
  };
  if (row.selected_root_id) head.selectedRootId = row.selected_root_id;
  return head;
}

/** What the server sets for display is not stored in the message's JSON. */
export function storedJson(message: StoredMessage): string {
  const {
    createdAt: _createdAt,
    parentId: _parentId,
    selectedChildId: _selectedChildId,
    streaming: _streaming,
    ...stored
  } = message;
  return JSON.stringify(stored);
}

/**
 * A stored row as the API shows it. An answer still being generated is `streaming`; one whose
 * runner stopped renewing its lease (the server went down) reads as interrupted, partial text kept.
 */
export function messageOf(row: MessageRow, now = Date.now()): StoredMessage {
  const message: StoredMessage = {
    ...(JSON.parse(row.message_json) as StoredMessage),
    id: row.id,
    parentId: row.parent_id,
    createdAt: new Date(Number(row.created_at)).toISOString(),
  };
  if (row.selected_child_id) message.selectedChildId = row.selected_child_id;
  if (row.generating_until !== null) {
    if (Number(row.generating_until) > now) message.streaming = true;
    else message.interrupted = true;
  }
  return message;
}

/**
 * The updated_at a write stamps: now, but always later than the last one, so updated_at is
 * also the conversation's revision (a streamed read notices any write that lands meanwhile).
 */
export function nextStamp(row: ConversationRow, now: number): number {
  return Math.max(now, Number(row.updated_at) + 1);
}
