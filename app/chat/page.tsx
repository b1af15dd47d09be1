/**
 * A new chat. The chat view is the layout's (app/chat/layout.tsx): it reads the conversation
 * from the address, so it stays mounted when a new chat becomes its conversation.
 */
export default function NewChatPage() {
  return null;
}
