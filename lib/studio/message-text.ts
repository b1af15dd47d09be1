/**
 * Text made from messages: a conversation's title from its first prompt (plain words, no
 * markdown or markup), and the text full-text search indexes. Linear in the input: simple
 * scans and regular expressions without nested repetition. Safe in the browser.
 */
import type { Part } from "@/lib/gemini/types";
import { SEARCH_MARK_END, SEARCH_MARK_START, type StoredMessage } from "./conversation-schema";

/** Title of a conversation before its first prompt (and of one whose prompt has no words). */
export const DEFAULT_TITLE = "New chat";

/** Longest title made from a prompt, in characters. */
export const TITLE_CHARACTERS = 60;

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const BLOCK_MARKERS = /^\s{0,3}(?:(?:>\s?)+|#{1,6}\s+|[-*+]\s+(?:\[[ xX]\]\s+)?|\d{1,9}[.)]\s+)/;
const RULE = /^\s{0,3}(?:[-*_]\s*){3,}$/;
const IMAGE = /!\[([^\]\n]*)\]\([^)\n]*\)/g;
const LINK = /\[([^\]\n]*)\]\([^)\n]*\)/g;
const REFERENCE_LINK = /\[([^\]\n]*)\]\[[^\]\n]*\]/g;
const AUTOLINK = /<((?:https?|mailto):[^<>\s]*)>/g;
const TAG = /<\/?[A-Za-z!][^<>\n]{0,200}>/g;
const EMPHASIS = /(\*{1,3}|~~|`+)/g;
/** Underscores used as emphasis (at a word's edge), not inside snake_case names. */
const UNDERSCORE_EMPHASIS = /(^|[^\p{L}\p{N}])_{1,3}|_{1,3}(?=$|[^\p{L}\p{N}])/gu;

/** One line of markdown as the words a reader sees. */
function plainLine(line: string): string {
  return line
    .replace(BLOCK_MARKERS, "")
    .replace(IMAGE, "$1")
    .replace(LINK, "$1")
    .replace(REFERENCE_LINK, "$1")
    .replace(AUTOLINK, "$1")
    .replace(TAG, " ")
    .replace(EMPHASIS, "")
    .replace(UNDERSCORE_EMPHASIS, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/** Characters of one line looked at: the patterns above then cost at most this much per line. */
const LINE_CHARACTERS = 1000;

/**
 * The words of markdown text, code blocks left out (used only when there is nothing else), up
 * to about `enough` characters.
 */
export function plainTextOfMarkdown(text: string, enough = 4 * TITLE_CHARACTERS): string {
  const prose: string[] = [];
  const code: string[] = [];
  let proseLength = 0;
  let fence: string | null = null;
  for (const whole of text.split(/\r\n|\n|\r/)) {
    if (proseLength >= enough) break;
    const line = whole.slice(0, LINE_CHARACTERS);
    const opening = FENCE.exec(line);
    if (opening) {
      const marker = opening[1]!;
      if (fence === null) fence = marker[0]!.repeat(marker.length);
      else if (marker.startsWith(fence)) fence = null;
      continue;
    }
    if (fence !== null) {
      if (line.trim() && code.length < 20) code.push(line.trim());
      continue;
    }
    if (RULE.test(line)) continue;
    const plain = plainLine(line);
    if (plain) {
      prose.push(plain);
      proseLength += plain.length + 1;
    }
  }
  return (prose.length ? prose : code).join(" ");
}

/** A short plain title from a prompt's parts: its words without markdown, else what it carries. */
export function titleFromPrompt(parts: readonly Part[]): string {
  const words = plainTextOfMarkdown(
    parts
      .filter((part) => typeof part.text === "string" && !part.thought)
      .map((part) => part.text)
      .join("\n"),
  );
  let title = words;
  if (!title) {
    const response = parts.find((part) => part.functionResponse)?.functionResponse;
    if (response) title = `Function response ${response.name}`;
    else if (parts.some((part) => part.fileData || part.inlineData)) title = "Attachments";
  }
  title = title.replace(TAG, " ").replace(/\s+/g, " ").trim();
  if (!title) return DEFAULT_TITLE;
  return title.length > TITLE_CHARACTERS ? `${title.slice(0, TITLE_CHARACTERS - 1)}…` : title;
}

const MARKS = new RegExp(`[${SEARCH_MARK_START}${SEARCH_MARK_END}]`, "g");

/**
 * What full-text search indexes for a message: its text (the chosen answer's, thoughts left
 * out) and the names of its attachments.
 */
export function searchTextOf(message: StoredMessage): string {
  const pieces: string[] = [];
  for (const part of message.content.parts ?? [])
    if (typeof part.text === "string" && !part.thought) pieces.push(part.text);
  for (const attachment of message.attachments ?? []) pieces.push(attachment.displayName);
  return pieces.join("\n").replace(MARKS, "");
}

/** Whether a prompt's part is text sent as an attachment (a long paste), not typed. */
export function isAttachedText(
  message: Pick<StoredMessage, "content" | "attachments">,
  index: number,
): boolean {
  return (
    message.content.parts[index]?.text !== undefined &&
    (message.attachments ?? []).some((record) => record.part === index)
  );
}

/** What the person typed in a prompt: its text parts that are not attachments (a long paste is one). */
export function typedText(message: Pick<StoredMessage, "content" | "attachments">): string {
  return message.content.parts
    .map((part, index) =>
      (message.attachments ?? []).some((record) => record.part === index) ? "" : (part.text ?? ""),
    )
    .join("");
}
