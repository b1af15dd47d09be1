"use client";

import type { RefObject } from "react";
import { Button } from "@/components/ui/button";
import { NextTurnCodeButton } from "@/components/devtools/next-turn-code-button";
import type { Part } from "@/lib/gemini/types";
import type { ConversationSettingsState } from "@/lib/hooks/use-conversation-settings";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { useChatStore } from "@/lib/stores/chat-store";
import { useCompareStore } from "@/lib/stores/compare-store";
import { ConversationExportMenu } from "./conversation-transfer";
import { ShortcutsHelpButton } from "./keyboard-shortcuts";
import { ModelPicker } from "./model-picker";

/**
 * The chat's toolbar: the conversations (narrow screens), title, model, shortcuts, get code,
 * compare, export, and the settings toggle.
 */
export function ChatHeader({
  title,
  settingsState,
  draftKey,
  messages,
  partsFor,
  streaming,
  helpOpen,
  onHelpOpenChange,
  exportableId,
  problems,
  settingsOpen,
  settingsButton,
  onToggleSettings,
}: {
  title: string;
  settingsState: ConversationSettingsState;
  draftKey: string;
  /** The branch shown, for the next turn's code. */
  messages: StoredMessage[];
  partsFor(text: string): Part[];
  streaming: boolean;
  helpOpen: boolean;
  onHelpOpenChange(open: boolean): void;
  /** The conversation that can be exported (saved and loaded), if any. */
  exportableId: string | null;
  /** Settings that break a rule. */
  problems: number;
  settingsOpen: boolean;
  settingsButton: RefObject<HTMLButtonElement | null>;
  onToggleSettings(): void;
}) {
  const setSidebarOpen = useChatStore((state) => state.setSidebarOpen);
  const openCompare = useCompareStore((state) => state.openCompare);
  return (
    <div className="@container flex flex-wrap items-center gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
      <Button
        size="sm"
        className="md:hidden"
        onClick={() => setSidebarOpen(true)}
        aria-label="Show conversations"
      >
        ☰
      </Button>
      <h1 id="chat-title" className="min-w-0 flex-1 truncate text-base font-semibold">
        {title}
      </h1>
      {/* In a narrow chat (a phone, or the settings panel open beside it) the model and tools
          take a row of their own, wrapping; in a wide one, the title's row. */}
      <div className="order-last flex w-full min-w-0 flex-wrap items-center gap-2 @2xl:order-none @2xl:w-auto @2xl:flex-nowrap">
        <ModelPicker state={settingsState} />
        <ShortcutsHelpButton open={helpOpen} onOpenChange={onHelpOpenChange} />
        <NextTurnCodeButton
          draftKey={draftKey}
          settings={settingsState.settings}
          messages={messages}
          partsFor={partsFor}
        />
        <Button
          size="sm"
          disabled={streaming}
          onClick={() => openCompare(settingsState.settings)}
          title="Answer one prompt with two to four models side by side"
        >
          Compare
        </Button>
        {exportableId && <ConversationExportMenu conversationId={exportableId} />}
      </div>
      <Button
        ref={settingsButton}
        size="sm"
        onClick={onToggleSettings}
        aria-expanded={settingsOpen}
        aria-controls="chat-settings"
      >
        Settings{problems > 0 ? ` (${problems} to fix)` : ""}
      </Button>
    </div>
  );
}
