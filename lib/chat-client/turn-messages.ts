import type { Conversation, StartTurn, StoredMessage } from "@/lib/studio/conversation-schema";
import { newMessageId } from "@/lib/studio/chat-request";
import { currentLeaf } from "@/lib/studio/conversation-tree";
import { isAttachedText } from "@/lib/studio/message-text";

/** The messages a turn adds, as the page shows them and as the turn carries them. */

type TurnPrompt = NonNullable<StartTurn["prompt"]>;

/** A random conversation id, made in the browser so a repeated send finds the same conversation. */
export function newConversationId(): string {
  return `${newMessageId()}${newMessageId()}`.slice(0, 24);
}

export function currentLeafIdOf(conversation: Conversation | undefined): string | null {
  if (!conversation) return null;
  return currentLeaf(conversation)?.id ?? null;
}

/** A prompt as its turn carries it. */
export function turnPromptOf(prompt: StoredMessage): TurnPrompt {
  return {
    id: prompt.id,
    content: prompt.content,
    ...(prompt.attachments ? { attachments: prompt.attachments } : {}),
  };
}

/** A turn's prompt as the page shows it until the server has it. */
export function storedPromptOf(prompt: TurnPrompt, parentId: string | null): StoredMessage {
  return {
    id: prompt.id,
    role: "user",
    parentId,
    content: prompt.content,
    ...(prompt.attachments ? { attachments: prompt.attachments } : {}),
  };
}

/** A new version of a prompt: the edited text replaces its text parts; attachments stay, in place. */
export function editedPrompt(
  original: StoredMessage,
  parentId: string | null,
  text: string,
): StoredMessage {
  // What was attached stays (a long paste is text, but not what the person typed).
  const otherParts = original.content.parts.filter(
    (part, index) => part.text === undefined || isAttachedText(original, index),
  );
  const kept = (original.attachments ?? []).flatMap((record) => {
    const part = original.content.parts[record.part];
    const index = part ? otherParts.indexOf(part) : -1;
    return index < 0 ? [] : [{ ...record, part: index }];
  });
  return {
    id: newMessageId(),
    role: "user",
    parentId,
    content: { role: "user", parts: [...otherParts, { text }] },
    ...(kept.length ? { attachments: kept } : {}),
  };
}
