/**
 * The security headers of the studio's pages: a Content-Security-Policy with a fresh nonce per
 * response, and framing refused. Scripts come only from this origin or carry the nonce (Next
 * puts it on its own inline scripts, the layout on its theme script); images and media only
 * from this origin, `data:` and `blob:` (answers' inline images, upload previews, diagrams);
 * connections only to this origin and its own `blob:` URLs, so a prompt-injected answer's
 * `![x](https://outside/?q=…)` is never fetched. Styles may be inline: KaTeX and React set style attributes, which a nonce
 * cannot allow. Route handlers (the API, uploads, the diagram frame with its own policy) never
 * get these: proxy.ts runs for pages only.
 */

/** A fresh nonce: 128 random bits, base64. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** The policy of a page response carrying `nonce`; `development` adds what `next dev` needs. */
export function pageContentSecurityPolicy(nonce: string, development = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self' blob:",
    "frame-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Response headers of every page besides the policy. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};
