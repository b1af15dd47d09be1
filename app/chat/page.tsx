import { ChatView } from "@/components/chat/chat-view";

export default function NewChatPage() {
  return <ChatView conversationId={null} />;
}
