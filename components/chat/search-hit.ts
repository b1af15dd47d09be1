"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";
import { useChatActions } from "@/lib/hooks/use-chat-actions";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { pathTo, type ConversationTree } from "@/lib/studio/conversation-tree";
import { UNPIN_EVENT } from "./message-list";

/** The name of the page's highlight of searched words (styled in globals.css). */
const HIGHLIGHT = "search-hit";

/** The words a search matched (letters and digits, as the server's search reads them). */
function searchedWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 12);
}

/** Ranges of `element`'s text where a searched word starts (the last word as a prefix). */
function wordRanges(element: Element, words: readonly string[]): Range[] {
  if (!words.length) return [];
  const ranges: Range[] = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && ranges.length < 500; node = walker.nextNode()) {
    const text = (node.textContent ?? "").toLowerCase();
    for (const word of words) {
      for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length)) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + word.length);
        ranges.push(range);
      }
    }
  }
  return ranges;
}

/**
 * Opens the conversation at a search hit (`?message=…&find=…`, from the sidebar's search):
 * the branch holding the message is shown, the message scrolled into view and outlined, and
 * the searched words in it marked (the CSS highlight API: the rendered text is not touched).
 */
export function useSearchHit(
  conversationId: string | null,
  tree: ConversationTree,
  path: readonly StoredMessage[],
) {
  const params = useSearchParams();
  const messageId = params.get("message");
  const find = params.get("find") ?? "";
  const actions = useChatActions();
  const switched = useRef<string | null>(null);
  const shown = messageId !== null && path.some((message) => message.id === messageId);

  // A hit on another branch: show the branch that holds it (once per hit).
  useEffect(() => {
    if (!conversationId || !messageId || shown || !tree.byId.has(messageId)) return;
    if (switched.current === messageId) return;
    switched.current = messageId;
    const onPath = new Set(path.map((message) => message.id));
    for (const message of pathTo(tree, messageId))
      if (!onPath.has(message.id)) actions.switchVersion(conversationId, message.id);
  }, [conversationId, messageId, shown, tree, path, actions]);

  useEffect(() => {
    if (!shown || !messageId) return;
    const article = document.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`);
    if (!article) return;
    article.setAttribute("data-search-hit", "");
    // The list would follow its bottom as it lays out: it stays where the hit is instead.
    article.closest("[data-conversation-scroller]")?.dispatchEvent(new Event(UNPIN_EVENT));
    // Again on the next frames, as the messages above it take their real height.
    const reveal = () => article.scrollIntoView({ block: "center" });
    reveal();
    const frame = requestAnimationFrame(() => requestAnimationFrame(reveal));
    const highlights = typeof CSS !== "undefined" ? CSS.highlights : undefined;
    const ranges = wordRanges(article, searchedWords(find));
    if (highlights && ranges.length) highlights.set(HIGHLIGHT, new Highlight(...ranges));
    return () => {
      cancelAnimationFrame(frame);
      article.removeAttribute("data-search-hit");
      highlights?.delete(HIGHLIGHT);
    };
  }, [shown, messageId, find]);
}
