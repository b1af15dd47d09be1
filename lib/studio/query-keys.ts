/**
 * The keys of the studio's shared queries, in a module without "use client": the pages'
 * hooks read them, and the server puts the same queries' data into a page it renders
 * (lib/server/pages/chat-page-data.ts), so the page starts with it.
 */

export const MODELS_QUERY_KEY = ["models"] as const;

export const PRESETS_QUERY_KEY = ["presets"] as const;

export const conversationKeys = {
  all: ["conversations"] as const,
  lists: () => [...conversationKeys.all, "list"] as const,
  list: (search: string) => [...conversationKeys.lists(), search] as const,
  detail: (id: string) => [...conversationKeys.all, "detail", id] as const,
};

/** The caller's files (`/v1beta/files`): the lists by page size and each file. */
export const fileKeys = {
  all: ["files"] as const,
  lists: () => [...fileKeys.all, "list"] as const,
  list: (pageSize: number) => [...fileKeys.lists(), pageSize] as const,
  detail: (name: string) => [...fileKeys.all, "detail", name] as const,
};
