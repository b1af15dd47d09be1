"use client";

import { usePathname } from "next/navigation";
import { useEffect, useSyncExternalStore } from "react";

const NEW_CHAT_PATH = "/chat";
const CONVERSATION_PATH = /^\/chat\/([^/]+)\/?$/;

/** The address of a saved conversation's page. */
export function conversationPath(conversationId: string): string {
  return `/chat/${encodeURIComponent(conversationId)}`;
}

function conversationIdOfPath(pathname: string): string | null {
  const match = CONVERSATION_PATH.exec(pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
}

/**
 * A new chat that has just become a conversation, shown ahead of Next's router. The router
 * learns of the new address in a transition, which every urgent update (each frame of the
 * streaming answer) interrupts and restarts: the answer's first text waited 100 to 300 ms for
 * it in a browser (bench/README.md). Valid only while the router still says "/chat" and the
 * address is the conversation's.
 */
let openedAhead: { id: string; path: string } | null = null;
const listeners = new Set<() => void>();

function setOpenedAhead(next: typeof openedAhead): void {
  openedAhead = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The conversation the chat page shows: null on a new chat. Read from the address, except in
 * the moment between a new chat's first message and the router's catching up (openedInPlace).
 */
export function useOpenConversationId(): string | null {
  const pathname = usePathname() ?? "";
  const ahead = useSyncExternalStore(
    subscribe,
    () => openedAhead,
    () => null,
  );
  // The router has caught up, or gone elsewhere: the address alone says what is open.
  useEffect(() => {
    if (ahead && pathname !== NEW_CHAT_PATH) setOpenedAhead(null);
  }, [ahead, pathname]);
  if (ahead && pathname === NEW_CHAT_PATH && window.location.pathname === ahead.path)
    return ahead.id;
  return conversationIdOfPath(pathname);
}

/**
 * Gives the page the address of the conversation a new chat just became, in place of the new
 * chat's: no request to the server and no new page between Enter and the answer's first
 * tokens. The view shows the conversation at once; Next's router follows (`usePathname`). A
 * reload, or opening the address elsewhere, loads the conversation's page.
 */
export function openedInPlace(conversationId: string): void {
  const path = conversationPath(conversationId);
  window.history.replaceState(null, "", path);
  setOpenedAhead({ id: conversationId, path });
}

/**
 * For what opens a new chat: a conversation still shown ahead of the router is let go, so the
 * new chat does not show it while the router catches up.
 */
export function leaveOpenedInPlace(): void {
  if (openedAhead) setOpenedAhead(null);
}
