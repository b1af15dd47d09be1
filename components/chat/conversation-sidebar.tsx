"use client";

import { IntentLink } from "@/components/ui/intent-link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { ConversationSearchResult } from "@/lib/studio/conversation-schema";
import { Button } from "@/components/ui/button";
import { inputClassName } from "@/components/ui/field";
import {
  useConversationList,
  useDeleteConversation,
  useRestoreConversation,
  useUpdateConversation,
} from "@/lib/hooks/use-conversations";
import { useChatStore } from "@/lib/stores/chat-store";
import { leaveOpenedInPlace, useOpenConversationId } from "@/lib/hooks/use-open-conversation";
import { MatchPassage } from "./match-passage";
import { ConversationTransfer } from "./conversation-transfer";

function useDebounced<Value>(value: Value, delay: number): Value {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** A conversation's title being edited: Enter or leaving the field saves it, Escape keeps the old one. */
function RenameTitle({
  conversation,
  title,
  onChange,
  onDone,
}: {
  conversation: ConversationSearchResult;
  title: string;
  onChange(title: string): void;
  /** Whether the title typed is saved. */
  onDone(save: boolean): void;
}) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.select();
  }, []);
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter") {
      event.preventDefault();
      onDone(true);
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      onDone(false);
    }
  }
  return (
    <li className="px-1 py-1">
      <label htmlFor={`rename-${conversation.id}`} className="sr-only">
        New title for {conversation.title}
      </label>
      <input
        id={`rename-${conversation.id}`}
        ref={input}
        value={title}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => onDone(true)}
        className={inputClassName}
        maxLength={200}
      />
    </li>
  );
}

/** Where a conversation opens: at the message a search matched, its words marked. */
function conversationHref(conversation: ConversationSearchResult, search: string): string {
  const path = `/chat/${encodeURIComponent(conversation.id)}`;
  if (!conversation.matchMessageId || !search) return path;
  return `${path}?${new URLSearchParams({ message: conversation.matchMessageId, find: search })}`;
}

function ConversationItem({
  conversation,
  search,
  active,
  onDelete,
}: {
  conversation: ConversationSearchResult;
  /** The search the list answers ("" when none). */
  search: string;
  active: boolean;
  onDelete(): void;
}) {
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(conversation.title);
  const update = useUpdateConversation();
  const setSidebarOpen = useChatStore((state) => state.setSidebarOpen);
  const renameButton = useRef<HTMLButtonElement>(null);
  function finish(save: boolean) {
    const next = title.trim();
    if (save && next !== "" && next !== conversation.title)
      update.mutate({ id: conversation.id, change: { title: next } });
    else setTitle(conversation.title);
    setRenaming(false);
    requestAnimationFrame(() => renameButton.current?.focus());
  }
  if (renaming)
    return (
      <RenameTitle conversation={conversation} title={title} onChange={setTitle} onDone={finish} />
    );
  return (
    <li
      className={`group flex items-center gap-1 rounded-md ${active ? "bg-zinc-200 dark:bg-zinc-800" : "hover:bg-zinc-100 dark:hover:bg-zinc-900"}`}
    >
      <div className="min-w-0 flex-1">
        <IntentLink
          href={conversationHref(conversation, search)}
          aria-current={active ? "page" : undefined}
          onClick={() => setSidebarOpen(false)}
          className="block truncate px-2 py-1.5 text-sm"
          title={conversation.title}
        >
          {conversation.title}
        </IntentLink>
        {conversation.match && <MatchPassage passage={conversation.match} />}
      </div>
      <Button
        ref={renameButton}
        size="sm"
        variant="ghost"
        aria-label={`Rename ${conversation.title}`}
        onClick={() => setRenaming(true)}
      >
        ✎
      </Button>
      <Button
        size="sm"
        variant="ghost"
        aria-label={`Delete ${conversation.title}`}
        onClick={onDelete}
      >
        ✕
      </Button>
    </li>
  );
}

/** How long the undo offer stays after a delete (the server keeps the conversation longer). */
const UNDO_SHOWN_MS = 15_000;

interface Deleted {
  conversation: ConversationSearchResult;
  /** It was the open conversation: Undo opens it again. */
  wasOpen: boolean;
}

/** "Deleted “…”. Undo" after a delete, for a while. */
function UndoDelete({ deleted, onDone }: { deleted: Deleted; onDone(): void }) {
  const restore = useRestoreConversation();
  const router = useRouter();
  useEffect(() => {
    const timer = setTimeout(onDone, UNDO_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [deleted, onDone]);
  function undo() {
    restore.mutate(deleted.conversation.id, {
      onSuccess: () => {
        onDone();
        if (deleted.wasOpen) router.push(`/chat/${encodeURIComponent(deleted.conversation.id)}`);
      },
    });
  }
  return (
    <div
      role="status"
      className="flex items-center gap-2 rounded-md bg-zinc-900 px-3 py-2 text-xs text-white dark:bg-zinc-100 dark:text-zinc-900"
    >
      <span className="min-w-0 flex-1 truncate">Deleted “{deleted.conversation.title}”.</span>
      <button type="button" className="font-semibold underline" onClick={undo}>
        Undo
      </button>
      {restore.isError && <span role="alert">Could not undo: {restore.error.message}</span>}
    </div>
  );
}

/** Saved conversations: search every message, open, rename, delete (with undo). */
export function ConversationSidebar() {
  const activeId = useOpenConversationId();
  const router = useRouter();
  const [search, setSearch] = useState("");
  const settledSearch = useDebounced(search.trim(), 200);
  const list = useConversationList(settledSearch);
  const remove = useDeleteConversation();
  const [deleted, setDeleted] = useState<Deleted | null>(null);
  const open = useChatStore((state) => state.sidebarOpen);
  const setOpen = useChatStore((state) => state.setSidebarOpen);

  function deleteNow(target: ConversationSearchResult) {
    remove.mutate(target.id, {
      onSuccess: () => {
        const wasOpen = target.id === activeId;
        setDeleted({ conversation: target, wasOpen });
        if (wasOpen) {
          leaveOpenedInPlace();
          router.push("/chat");
        }
      },
    });
  }

  return (
    <aside
      aria-label="Conversations"
      className={`${open ? "absolute inset-0 z-30 flex" : "hidden"} w-full flex-col gap-2 border-r border-zinc-200 bg-white p-2 md:static md:flex md:w-64 md:shrink-0 dark:border-zinc-800 dark:bg-zinc-950`}
    >
      <div className="flex gap-2">
        <IntentLink
          href="/chat"
          onClick={() => {
            leaveOpenedInPlace();
            setOpen(false);
          }}
          className="flex-1 rounded-md bg-zinc-900 px-3 py-1.5 text-center text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
        >
          New chat
        </IntentLink>
        <Button
          className="md:hidden"
          onClick={() => setOpen(false)}
          aria-label="Close conversations"
        >
          ✕
        </Button>
      </div>
      <label htmlFor="conversation-search" className="sr-only">
        Search conversations
      </label>
      <input
        id="conversation-search"
        type="search"
        placeholder="Search all messages"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        className={inputClassName}
      />
      <SavedConversations
        conversations={list.data?.conversations}
        searching={list.isPlaceholderData}
        loadError={list.isError ? list.error : null}
        search={settledSearch}
        activeId={activeId}
        deleteError={remove.isError ? remove.error : null}
        onDelete={deleteNow}
      />
      <ConversationTransfer />
      {deleted && <UndoDelete deleted={deleted} onDone={() => setDeleted(null)} />}
    </aside>
  );
}

/** The saved conversations (or a search's matches), each to open, rename or delete. */
function SavedConversations({
  conversations,
  searching,
  loadError,
  search,
  activeId,
  deleteError,
  onDelete,
}: {
  conversations: ConversationSearchResult[] | undefined;
  /** The list shown is the previous search's while the new one loads. */
  searching: boolean;
  loadError: Error | null;
  /** The search applied ("" when none; an empty list then says nothing matched). */
  search: string;
  activeId: string | null;
  deleteError: Error | null;
  onDelete(conversation: ConversationSearchResult): void;
}) {
  return (
    <nav
      aria-label="Saved conversations"
      aria-busy={searching}
      className={`min-h-0 flex-1 overflow-y-auto ${searching ? "opacity-70" : ""}`}
    >
      {loadError && (
        <p role="alert" className="p-2 text-xs text-red-700 dark:text-red-400">
          Could not load conversations: {loadError.message}
        </p>
      )}
      {conversations && conversations.length === 0 && !searching && (
        <p className="p-2 text-xs text-zinc-600 dark:text-zinc-400">
          {search ? "No conversation mentions that." : "No conversations yet."}
        </p>
      )}
      <ul className="flex flex-col gap-0.5">
        {conversations?.map((conversation) => (
          <ConversationItem
            key={conversation.id}
            conversation={conversation}
            search={search}
            active={conversation.id === activeId}
            onDelete={() => onDelete(conversation)}
          />
        ))}
      </ul>
      {deleteError && (
        <p role="alert" className="p-2 text-xs text-red-700 dark:text-red-400">
          Could not delete: {deleteError.message}
        </p>
      )}
    </nav>
  );
}
