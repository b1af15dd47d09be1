import { describe, expect, it } from "vitest";
import { SHORTCUTS, shortcutFor, type KeyLike } from "./shortcuts";

const key = (name: string, modifiers: Partial<KeyLike> = {}): KeyLike => ({
  key: name,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...modifiers,
});

describe("shortcuts", () => {
  it("maps each documented combination to its action, with ⌘ on Apple keyboards", () => {
    expect(shortcutFor(key("O", { ctrlKey: true, shiftKey: true }), false, true)).toBe("new-chat");
    expect(shortcutFor(key("o", { metaKey: true, shiftKey: true }), true, true)).toBe("new-chat");
    expect(shortcutFor(key("o", { ctrlKey: true, shiftKey: true }), true, true)).toBeNull();
    expect(shortcutFor(key("Escape", { shiftKey: true }), false, true)).toBe("focus-composer");
    expect(shortcutFor(key("Escape"), false, true)).toBe("stop");
    expect(shortcutFor(key("G", { ctrlKey: true, shiftKey: true }), false, false)).toBe(
      "regenerate",
    );
    expect(shortcutFor(key(",", { ctrlKey: true }), false, true)).toBe("open-settings");
    expect(shortcutFor(key("k", { ctrlKey: true }), false, true)).toBe("search");
  });

  it("? opens the help only outside text fields, so it can still be typed", () => {
    expect(shortcutFor(key("?", { shiftKey: true }), false, false)).toBe("help");
    expect(shortcutFor(key("?", { shiftKey: true }), false, true)).toBeNull();
  });

  it("no two shortcuts share a combination", () => {
    const combinations = SHORTCUTS.map((shortcut) => shortcut.keys.join("+"));
    expect(new Set(combinations).size).toBe(combinations.length);
  });
});
