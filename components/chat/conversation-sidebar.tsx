"use client";

import Link from "next/link";
import { useParams, useRouter } from "next/navigation";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { ConversationSummary } from "@/lib/studio/conversation-schema";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { inputClassName } from "@/components/ui/field";
import {
  useConversationList,
  useDeleteConversation,
  useUpdateConversation,
} from "@/lib/hooks/use-conversations";
import { useChatStore } from "@/lib/stores/chat-store";

function useDebounced<Value>(value: Value, delay: number): Value {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

function ConversationItem({
  conversation,
  active,
  onDelete,
}: {
  conversation: ConversationSummary;
  active: boolean;
  onDelete(): void;
}) {
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(conversation.title);
  const update = useUpdateConversation();
  const setSidebarOpen = useChatStore((state) => state.setSidebarOpen);
  const input = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (renaming) input.current?.select();
  }, [renaming]);
  function finish(save: boolean) {
    const next = title.trim();
    if (save && next !== "" && next !== conversation.title)
      update.mutate({ id: conversation.id, change: { title: next } });
    else setTitle(conversation.title);
    setRenaming(false);
    requestAnimationFrame(() => renameButton.current?.focus());
  }
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter") {
      event.preventDefault();
      finish(true);
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      finish(false);
    }
  }
  if (renaming) {
    return (
      <li className="px-1 py-1">
        <label htmlFor={`rename-${conversation.id}`} className="sr-only">
          New title for {conversation.title}
        </label>
        <input
          id={`rename-${conversation.id}`}
          ref={input}
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          onKeyDown={onKeyDown}
          onBlur={() => finish(true)}
          className={inputClassName}
          maxLength={200}
        />
      </li>
    );
  }
  return (
    <li
      className={`group flex items-center gap-1 rounded-md ${active ? "bg-zinc-200 dark:bg-zinc-800" : "hover:bg-zinc-100 dark:hover:bg-zinc-900"}`}
    >
      <Link
        href={`/chat/${encodeURIComponent(conversation.id)}`}
        aria-current={active ? "page" : undefined}
        onClick={() => setSidebarOpen(false)}
        className="min-w-0 flex-1 truncate px-2 py-1.5 text-sm"
        title={conversation.title}
      >
        {conversation.title}
      </Link>
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

/** Saved conversations: search by title, open, rename, delete (after confirmation). */
export function ConversationSidebar() {
  const params = useParams<{ conversationId?: string }>();
  const activeId = params.conversationId ? decodeURIComponent(params.conversationId) : null;
  const router = useRouter();
  const [search, setSearch] = useState("");
  const settledSearch = useDebounced(search.trim(), 200);
  const list = useConversationList(settledSearch);
  const remove = useDeleteConversation();
  const [pendingDelete, setPendingDelete] = useState<ConversationSummary | null>(null);
  const open = useChatStore((state) => state.sidebarOpen);
  const setOpen = useChatStore((state) => state.setSidebarOpen);

  function confirmDelete() {
    const target = pendingDelete;
    setPendingDelete(null);
    if (!target) return;
    remove.mutate(target.id, {
      onSuccess: () => {
        if (target.id === activeId) router.push("/chat");
      },
    });
  }

  return (
    <aside
      aria-label="Conversations"
      className={`${open ? "absolute inset-0 z-30 flex" : "hidden"} w-full flex-col gap-2 border-r border-zinc-200 bg-white p-2 md:static md:flex md:w-64 md:shrink-0 dark:border-zinc-800 dark:bg-zinc-950`}
    >
      <div className="flex gap-2">
        <Link
          href="/chat"
          onClick={() => setOpen(false)}
          className="flex-1 rounded-md bg-zinc-900 px-3 py-1.5 text-center text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
        >
          New chat
        </Link>
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
        placeholder="Search by title"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        className={inputClassName}
      />
      <nav aria-label="Saved conversations" className="min-h-0 flex-1 overflow-y-auto">
        {list.isError && (
          <p role="alert" className="p-2 text-xs text-red-700 dark:text-red-400">
            Could not load conversations: {list.error.message}
          </p>
        )}
        {list.data && list.data.conversations.length === 0 && (
          <p className="p-2 text-xs text-zinc-600 dark:text-zinc-400">
            {settledSearch ? "No conversation has that in its title." : "No conversations yet."}
          </p>
        )}
        <ul className="flex flex-col gap-0.5">
          {list.data?.conversations.map((conversation) => (
            <ConversationItem
              key={conversation.id}
              conversation={conversation}
              active={conversation.id === activeId}
              onDelete={() => setPendingDelete(conversation)}
            />
          ))}
        </ul>
        {remove.isError && (
          <p role="alert" className="p-2 text-xs text-red-700 dark:text-red-400">
            Could not delete: {remove.error.message}
          </p>
        )}
      </nav>
      <ConfirmDialog
        open={pendingDelete !== null}
        title="Delete this conversation?"
        confirmLabel="Delete"
        onConfirm={confirmDelete}
        onCancel={() => setPendingDelete(null)}
      >
        “{pendingDelete?.title}” and all its messages will be deleted for good.
      </ConfirmDialog>
    </aside>
  );
}
