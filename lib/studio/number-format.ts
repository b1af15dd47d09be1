/**
 * Numbers as the studio shows them: digits grouped in threes ("1,048,576"), at most three
 * decimals, the same whatever the browser's language (the server renders them too).
 *
 * One formatter for the whole page: `Number.prototype.toLocaleString("en")` builds a new one on
 * every call, and the first one a page builds loads the locale's data, about 28 ms in Chromium on
 * this project's machine, which the first answer's usage line paid while its first tokens waited.
 * `warmNumberFormat` builds it ahead, when the page is idle (chat/answer-warm-up.tsx).
 */
let grouped: Intl.NumberFormat | undefined;

function formatter(): Intl.NumberFormat {
  grouped ??= new Intl.NumberFormat("en");
  return grouped;
}

export function formatNumber(value: number): string {
  return formatter().format(value);
}

/** Builds the formatter (and loads its locale data) now, so that no later render pays for it. */
export function warmNumberFormat(): void {
  formatter();
}
