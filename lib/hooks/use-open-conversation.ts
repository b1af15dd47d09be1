"use client";

import { usePathname } from "next/navigation";

const CONVERSATION_PATH = /^\/chat\/([^/]+)\/?$/;

/** The address of a saved conversation's page. */
export function conversationPath(conversationId: string): string {
  return `/chat/${encodeURIComponent(conversationId)}`;
}

/**
 * The conversation the chat page shows, read from its address: null on a new chat. A new
 * chat's first message gives it an id and the address changes in place (openedInPlace), so
 * the page shows the answer without loading the conversation's page from the server.
 */
export function useOpenConversationId(): string | null {
  const match = CONVERSATION_PATH.exec(usePathname() ?? "");
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
}

/**
 * Gives the page the address of the conversation a new chat just became, in place of the new
 * chat's (Next's router keeps the rendered page and updates `usePathname`): no request to the
 * server and no new page between Enter and the answer's first tokens. A reload, or opening the
 * address elsewhere, loads the conversation's page.
 */
export function openedInPlace(conversationId: string): void {
  window.history.replaceState(null, "", conversationPath(conversationId));
}
