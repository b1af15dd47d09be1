import { HydrationBoundary } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ChatView } from "@/components/chat/chat-view";
import { ConversationSidebar } from "@/components/chat/conversation-sidebar";
import { chatPageState } from "@/lib/server/pages/chat-page-data";
import { AttachmentsStoreProvider } from "@/lib/stores/attachments-store";
import { ChatStoreProvider } from "@/lib/stores/chat-store";
import { CompareStoreProvider } from "@/lib/stores/compare-store";

export const metadata = { title: "Chat · Genstudio" };

/**
 * The chat pages share one store, the sidebar and the chat view, so a running answer survives
 * navigation and a new chat turns into its conversation without a new view (the view reads the
 * conversation from the address; the pages themselves draw nothing).
 * The models, conversations and presets come with the page (read while it is rendered), so
 * the composer is ready without a round trip.
 */
export default async function ChatLayout({ children }: { children: ReactNode }) {
  const state = await chatPageState();
  return (
    <HydrationBoundary state={state ?? undefined}>
      <ChatStoreProvider>
        <CompareStoreProvider>
          <AttachmentsStoreProvider>
            <div className="relative flex min-h-0 flex-1">
              <ConversationSidebar />
              <ChatView />
              {children}
            </div>
          </AttachmentsStoreProvider>
        </CompareStoreProvider>
      </ChatStoreProvider>
    </HydrationBoundary>
  );
}
