"use client";

import { useEffect, useState, type RefCallback } from "react";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { versionsOf, type ConversationTree } from "@/lib/studio/conversation-tree";
import { useChatStore } from "@/lib/stores/chat-store";
import { MessageSlot } from "./message-view";

/**
 * The rows of the branch shown. It re-renders when a message is added or a version switched,
 * never per token: the in-flight answer is one more row that reads the stream itself.
 */
export function MessageList({
  conversationId,
  messages,
  tree,
}: {
  conversationId: string;
  /** The branch shown, first message to last. */
  messages: readonly StoredMessage[];
  tree: ConversationTree;
}) {
  const inflightId = useChatStore((state) =>
    state.inflight?.conversationId === conversationId ? state.inflight.messageId : null,
  );
  const pendingSlot = inflightId !== null && !messages.some((message) => message.id === inflightId);
  const lastId = pendingSlot ? inflightId : messages[messages.length - 1]?.id;
  // One flat keyed list: when the streamed answer is saved, its row stays the same element
  // (a row moving from a trailing slot into a nested array would be remounted and re-parsed).
  const rows: { id: string; message?: StoredMessage }[] = messages.map((message) => ({
    id: message.id,
    message,
  }));
  if (pendingSlot) rows.push({ id: inflightId });
  return (
    <div className="flex flex-col gap-6">
      {rows.map(({ id, message }) => {
        const versions = message ? versionsOf(tree, message) : undefined;
        return (
          <MessageSlot
            key={id}
            id={id}
            conversationId={conversationId}
            message={message}
            isLast={id === lastId}
            versionIndex={versions?.index ?? 1}
            versionCount={versions?.count ?? 1}
            previousVersionId={versions?.previousId}
            nextVersionId={versions?.nextId}
          />
        );
      })}
    </div>
  );
}

/** An event that tells the conversation's scroller to stop following its bottom (a search hit is shown). */
export const UNPIN_EVENT = "genstudio:unpin";

/**
 * Keeps a scroll container pinned to the bottom while its content grows, unless the person
 * scrolled up to read (or the page showed something above, UNPIN_EVENT); no work per token in
 * React. It follows the sizes of the container and of its children (ResizeObserver): their
 * callbacks come after the frame's layout, so following the bottom never forces a layout of
 * its own in the middle of a frame (reading `scrollHeight` right after each DOM change did, once
 * per change). A callback ref: the container and its children may be replaced (compare mode and
 * back, loading and then the messages), and the observers follow them.
 */
export function useStickToBottom<Element extends HTMLElement>(): RefCallback<Element> {
  const [element, setElement] = useState<Element | null>(null);
  useEffect(() => {
    if (!element) return;
    let pinned = true;
    let lastTop = element.scrollTop;
    // Pinned again at the end; unpinned only when the view moved up. Text added between frames
    // never unpins: a scroll event reports after it, when the end may already be far below.
    const onScroll = () => {
      const top = element.scrollTop;
      if (element.scrollHeight - top - element.clientHeight < 80) pinned = true;
      else if (top < lastTop) pinned = false;
      lastTop = top;
    };
    const unpin = () => {
      pinned = false;
    };
    const follow = () => {
      if (pinned) element.scrollTop = element.scrollHeight;
    };
    // Sizes of the view itself (what grows below it makes it shorter) and of its children,
    // which grow with any text added inside them.
    const sizes = new ResizeObserver(follow);
    const observeChildren = () => {
      sizes.disconnect();
      sizes.observe(element);
      for (const child of element.children) sizes.observe(child);
    };
    // Children replaced: observe the new ones (their first size report follows the bottom).
    const changes = new MutationObserver(observeChildren);
    observeChildren();
    changes.observe(element, { childList: true });
    element.addEventListener("scroll", onScroll, { passive: true });
    element.addEventListener(UNPIN_EVENT, unpin);
    return () => {
      element.removeEventListener("scroll", onScroll);
      element.removeEventListener(UNPIN_EVENT, unpin);
      changes.disconnect();
      sizes.disconnect();
    };
  }, [element]);
  return setElement;
}
