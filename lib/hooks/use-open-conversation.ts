"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef, useSyncExternalStore } from "react";

const CONVERSATION_PATH = /^\/chat\/([^/]+)\/?$/;

/** The address of a saved conversation's page. */
export function conversationPath(conversationId: string): string {
  return `/chat/${encodeURIComponent(conversationId)}`;
}

function conversationIdOf(pathname: string | null): string | null {
  const match = CONVERSATION_PATH.exec(pathname ?? "");
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
}

/**
 * The conversation a new chat became in this page (openedInPlace), until the router's address
 * names it. Next's router takes an address replaced outside it as a transition, rendered after
 * the event that sent the message; this one is shown in the same render as the sent message.
 */
let openedHere: string | null = null;
const listeners = new Set<() => void>();

function setOpenedHere(conversationId: string | null): void {
  if (openedHere === conversationId) return;
  openedHere = conversationId;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The conversation the chat page shows: the one its address names, null on a new chat, or the
 * conversation a new chat just became (openedInPlace) while the router catches up with the
 * address. Any address the router settles on afterwards supersedes it.
 */
export function useOpenConversationId(): string | null {
  const pathname = usePathname();
  const opened = useSyncExternalStore(
    subscribe,
    () => openedHere,
    () => null,
  );
  const routed = useRef(pathname);
  useEffect(() => {
    if (routed.current === pathname) return;
    routed.current = pathname;
    setOpenedHere(null);
  }, [pathname]);
  return conversationIdOf(pathname) ?? opened;
}

/**
 * Gives the page the address of the conversation a new chat just became, in place of the new
 * chat's (Next's router keeps the rendered page and updates `usePathname`): no request to the
 * server and no new page between Enter and the answer's first tokens. A reload, or opening the
 * address elsewhere, loads the conversation's page.
 */
export function openedInPlace(conversationId: string): void {
  setOpenedHere(conversationId);
  window.history.replaceState(null, "", conversationPath(conversationId));
}
