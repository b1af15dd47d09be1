/**
 * A saved conversation. The chat view is the layout's (app/chat/layout.tsx) and reads which
 * conversation from the address, so moving between conversations never remounts it.
 */
export default function ConversationPage() {
  return null;
}
