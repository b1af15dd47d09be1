"use client";

import { useEffect, useRef, useSyncExternalStore } from "react";
import { ModalDialog } from "@/components/ui/dialog";
import { Button } from "@/components/ui/button";
import { SHORTCUTS, keyLabel, shortcutFor, type ShortcutAction } from "@/lib/studio/shortcuts";

function isApple(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform);
}

/** Whether the page runs on an Apple keyboard (⌘ instead of Ctrl); false on the server. */
function useApple(): boolean {
  return useSyncExternalStore(
    () => () => {},
    isApple,
    () => false,
  );
}

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return (
    target instanceof HTMLInputElement &&
    !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].includes(
      target.type,
    )
  );
}

/**
 * Runs the chat's shortcuts. A handler returns false when its action does not apply now (Escape
 * with nothing to stop), so the key keeps its usual meaning. Nothing runs while a dialog is open.
 */
export function useChatShortcuts(
  handlers: Partial<Record<ShortcutAction, () => boolean | void>>,
): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.isComposing || document.querySelector("dialog[open]"))
        return;
      const action = shortcutFor(event, isApple(), isTextField(event.target));
      const handler = action ? latest.current[action] : undefined;
      if (!handler || handler() === false) return;
      event.preventDefault();
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}

/** The help sheet: every shortcut with its keys as printed on this keyboard. */
export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose(): void }) {
  const apple = useApple();
  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      title="Keyboard shortcuts"
      widthClassName="w-[min(28rem,calc(100vw-2rem))]"
    >
      <table className="text-sm">
        <thead className="sr-only">
          <tr>
            <th scope="col">Action</th>
            <th scope="col">Keys</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.action} data-shortcut={shortcut.action}>
              <td className="py-1 pr-4">{shortcut.description}</td>
              <td className="py-1 whitespace-nowrap">
                {shortcut.keys.map((key, index) => (
                  <span key={key}>
                    {index > 0 && " + "}
                    <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-xs dark:border-zinc-600 dark:bg-zinc-800">
                      {keyLabel(key, apple)}
                    </kbd>
                  </span>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        <kbd>?</kbd> works outside text fields; the others work anywhere on the chat page.
      </p>
    </ModalDialog>
  );
}

/** The header's button to the help sheet, and the sheet; `?` opens it too (see useChatShortcuts). */
export function ShortcutsHelpButton({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={button}
        size="sm"
        variant="ghost"
        aria-label="Keyboard shortcuts"
        aria-haspopup="dialog"
        onClick={() => onOpenChange(true)}
      >
        ?
      </Button>
      {open && (
        <ShortcutsHelp
          open
          onClose={() => {
            onOpenChange(false);
            requestAnimationFrame(() => button.current?.focus());
          }}
        />
      )}
    </>
  );
}
