/**
 * The chat's keyboard shortcuts: one table that both the key handler and the `?` help sheet
 * read, so what is listed is what works. "Mod" is Ctrl, or ⌘ on Apple keyboards. None of them
 * is one a browser keeps for itself (Ctrl+N, Ctrl+T, Ctrl+W, Ctrl+Shift+R...). Safe in the browser.
 */

export type ShortcutAction =
  "new-chat" | "focus-composer" | "stop" | "regenerate" | "open-settings" | "search" | "help";

export interface Shortcut {
  action: ShortcutAction;
  description: string;
  /** Keys as shown, in order. */
  keys: string[];
  /** Also works while typing in a text field. */
  inTextFields: boolean;
  matches(event: KeyLike, apple: boolean): boolean;
}

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

function mod(event: KeyLike, apple: boolean): boolean {
  return apple ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
}

function plain(event: KeyLike): boolean {
  return !event.ctrlKey && !event.metaKey && !event.altKey;
}

export const SHORTCUTS: Shortcut[] = [
  {
    action: "new-chat",
    description: "New chat",
    keys: ["Mod", "Shift", "O"],
    inTextFields: true,
    matches: (event, apple) =>
      mod(event, apple) && event.shiftKey && !event.altKey && event.key.toLowerCase() === "o",
  },
  {
    action: "focus-composer",
    description: "Focus the message box",
    keys: ["Shift", "Esc"],
    inTextFields: true,
    matches: (event) => plain(event) && event.shiftKey && event.key === "Escape",
  },
  {
    action: "stop",
    description: "Stop the answer",
    keys: ["Esc"],
    inTextFields: true,
    matches: (event) => plain(event) && !event.shiftKey && event.key === "Escape",
  },
  {
    action: "regenerate",
    description: "Regenerate the last answer",
    keys: ["Mod", "Shift", "G"],
    inTextFields: true,
    matches: (event, apple) =>
      mod(event, apple) && event.shiftKey && !event.altKey && event.key.toLowerCase() === "g",
  },
  {
    action: "open-settings",
    description: "Open or close the settings",
    keys: ["Mod", ","],
    inTextFields: true,
    matches: (event, apple) =>
      mod(event, apple) && !event.shiftKey && !event.altKey && event.key === ",",
  },
  {
    action: "search",
    description: "Search conversations",
    keys: ["Mod", "K"],
    inTextFields: true,
    matches: (event, apple) =>
      mod(event, apple) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === "k",
  },
  {
    action: "help",
    description: "Show these shortcuts",
    keys: ["?"],
    inTextFields: false,
    matches: (event) => plain(event) && event.key === "?",
  },
];

/** The shortcut an event means, if any (`typing`: the focus is in a text field). */
export function shortcutFor(
  event: KeyLike,
  apple: boolean,
  typing: boolean,
): ShortcutAction | null {
  const shortcut = SHORTCUTS.find((item) => item.matches(event, apple));
  if (!shortcut || (typing && !shortcut.inTextFields)) return null;
  return shortcut.action;
}

/** A key as printed on this keyboard. */
export function keyLabel(key: string, apple: boolean): string {
  if (key === "Mod") return apple ? "⌘" : "Ctrl";
  return key;
}
