/**
 * A conversation as a tree: every message names its parent, an edit or a regeneration is a
 * sibling, and each message remembers which reply was shown last, so the branch shown is the
 * path that follows those choices from the chosen first message down. Pure; safe in the browser.
 */
import type { Conversation, StoredMessage } from "./conversation-schema";

export interface ConversationTree {
  byId: ReadonlyMap<string, StoredMessage>;
  /** Replies by parent id (first messages under `null`), oldest first. */
  children: ReadonlyMap<string | null, readonly StoredMessage[]>;
}

export function buildTree(messages: readonly StoredMessage[]): ConversationTree {
  const byId = new Map<string, StoredMessage>();
  const children = new Map<string | null, StoredMessage[]>();
  for (const message of messages) byId.set(message.id, message);
  for (const message of messages) {
    // A parent that is not there (a partial import) makes the message a first message.
    const parent = message.parentId && byId.has(message.parentId) ? message.parentId : null;
    const list = children.get(parent);
    if (list) list.push(message);
    else children.set(parent, [message]);
  }
  return { byId, children };
}

function chosen(
  replies: readonly StoredMessage[] | undefined,
  selectedId: string | undefined,
): StoredMessage | undefined {
  if (!replies?.length) return undefined;
  return replies.find((reply) => reply.id === selectedId) ?? replies[replies.length - 1];
}

/** The branch below `start` (included) that follows each message's chosen reply. */
export function branchFrom(tree: ConversationTree, start: StoredMessage): StoredMessage[] {
  const path = [start];
  const seen = new Set([start.id]);
  let current = start;
  for (;;) {
    const next = chosen(tree.children.get(current.id), current.selectedChildId);
    if (!next || seen.has(next.id)) return path;
    seen.add(next.id);
    path.push(next);
    current = next;
  }
}

/** The messages shown: from the chosen first message, each one's chosen reply, to the end. */
export function currentPath(
  conversation: Pick<Conversation, "messages" | "selectedRootId">,
  tree: ConversationTree = buildTree(conversation.messages),
): StoredMessage[] {
  const root = chosen(tree.children.get(null), conversation.selectedRootId);
  return root ? branchFrom(tree, root) : [];
}

/** The messages from the first one down to `messageId` (included); empty when it is unknown. */
export function pathTo(tree: ConversationTree, messageId: string): StoredMessage[] {
  const path: StoredMessage[] = [];
  const seen = new Set<string>();
  let current = tree.byId.get(messageId);
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.push(current);
    current = current.parentId ? tree.byId.get(current.parentId) : undefined;
  }
  return path.reverse();
}

export interface Versions {
  /** 1-based position among the message's siblings (itself included). */
  index: number;
  count: number;
  previousId?: string;
  nextId?: string;
}

/** Where a message stands among its versions (the replies to the same message). */
export function versionsOf(tree: ConversationTree, message: StoredMessage): Versions {
  const parent = message.parentId && tree.byId.has(message.parentId) ? message.parentId : null;
  const siblings = tree.children.get(parent) ?? [message];
  const position = Math.max(
    0,
    siblings.findIndex((sibling) => sibling.id === message.id),
  );
  return {
    index: position + 1,
    count: siblings.length,
    previousId: siblings[position - 1]?.id,
    nextId: siblings[position + 1]?.id,
  };
}

/** The conversation with `messageId` chosen among its siblings (the branch below it as it was left). */
export function withSelected<Value extends Pick<Conversation, "messages" | "selectedRootId">>(
  conversation: Value,
  messageId: string,
): Value {
  const target = conversation.messages.find((message) => message.id === messageId);
  if (!target) return conversation;
  const parentId = target.parentId ?? null;
  if (parentId === null) return { ...conversation, selectedRootId: messageId };
  return {
    ...conversation,
    messages: conversation.messages.map((message) =>
      message.id === parentId ? { ...message, selectedChildId: messageId } : message,
    ),
  };
}

/** The last message of the branch shown, or null for an empty conversation. */
export function currentLeaf(conversation: Pick<Conversation, "messages" | "selectedRootId">) {
  const path = currentPath(conversation);
  return path[path.length - 1] ?? null;
}
