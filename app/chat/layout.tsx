import type { ReactNode } from "react";
import { ConversationSidebar } from "@/components/chat/conversation-sidebar";
import { AttachmentsStoreProvider } from "@/lib/stores/attachments-store";
import { ChatStoreProvider } from "@/lib/stores/chat-store";
import { CompareStoreProvider } from "@/lib/stores/compare-store";

export const metadata = { title: "Chat · Genstudio" };

/** The chat pages share one store and the sidebar, so a running answer survives navigation. */
export default function ChatLayout({ children }: { children: ReactNode }) {
  return (
    <ChatStoreProvider>
      <CompareStoreProvider>
        <AttachmentsStoreProvider>
          <div className="relative flex min-h-0 flex-1">
            <ConversationSidebar />
            {children}
          </div>
        </AttachmentsStoreProvider>
      </CompareStoreProvider>
    </ChatStoreProvider>
  );
}
