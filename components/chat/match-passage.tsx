import { SEARCH_MARK_END, SEARCH_MARK_START } from "@/lib/studio/conversation-schema";

/** A search result's passage with the matched words marked (text only: never parsed as HTML). */
export function MatchPassage({ passage }: { passage: string }) {
  const pieces: { text: string; marked: boolean }[] = [];
  for (const [index, piece] of passage.split(SEARCH_MARK_START).entries()) {
    if (index === 0) {
      pieces.push({ text: piece, marked: false });
      continue;
    }
    const end = piece.indexOf(SEARCH_MARK_END);
    if (end < 0) pieces.push({ text: piece, marked: true });
    else {
      pieces.push({ text: piece.slice(0, end), marked: true });
      pieces.push({ text: piece.slice(end + 1), marked: false });
    }
  }
  return (
    <p
      className="line-clamp-2 px-2 pb-1.5 text-xs text-zinc-600 dark:text-zinc-400"
      data-search-match=""
    >
      {pieces.map((piece, index) =>
        piece.marked ? (
          <mark
            key={index}
            className="rounded-sm bg-amber-200 px-0.5 text-zinc-950 dark:bg-amber-500/40 dark:text-amber-50"
          >
            {piece.text}
          </mark>
        ) : (
          piece.text
        ),
      )}
    </p>
  );
}
