import { ChatView } from "@/components/chat/chat-view";

/** A saved conversation; ChatView reads which one from the address. */
export default function ConversationPage() {
  return <ChatView key="chat" />;
}
