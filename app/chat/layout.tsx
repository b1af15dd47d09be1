import type { ReactNode } from "react";
import { ConversationSidebar } from "@/components/chat/conversation-sidebar";
import { AttachmentsStoreProvider } from "@/lib/stores/attachments-store";
import { ChatStoreProvider } from "@/lib/stores/chat-store";

export const metadata = { title: "Chat · Genstudio" };

/** The chat pages share one store and the sidebar, so a running answer survives navigation. */
export default function ChatLayout({ children }: { children: ReactNode }) {
  return (
    <ChatStoreProvider>
      <AttachmentsStoreProvider>
        <div className="relative flex min-h-0 flex-1">
          <ConversationSidebar />
          {children}
        </div>
      </AttachmentsStoreProvider>
    </ChatStoreProvider>
  );
}
