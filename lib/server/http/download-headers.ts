import "server-only";

/**
 * The headers of a file's bytes (`files/{id}:download`), in both modes: the file is the
 * model's or the upstream's output, not the studio's page, so a browser must never run it as
 * one of the studio's documents. `nosniff` keeps the browser to the declared type; the policy
 * gives a document opened anyway no scripts, no requests and an origin of its own (`sandbox`);
 * any type a browser would render as a document (HTML, SVG, XML, PDF, text, anything unknown)
 * is offered as a download. Raster images, audio and video stay inline, as the chat shows
 * them. A type that is not a plain media type is sent as bytes.
 */

const MEDIA_TYPE = /^[\w!#$&^.+-]{1,127}\/[\w!#$&^.+-]{1,127}(?:\s*;[\w\s=";.+-]{0,200})?$/;
const INLINE = /^(?:image\/(?:png|jpeg|gif|webp|avif|bmp)|audio\/[\w.+-]+|video\/[\w.+-]+)$/i;
export const DOWNLOAD_POLICY = "default-src 'none'; sandbox";

export function downloadHeaders(mimeType: string, id: string, sizeBytes?: number): Headers {
  const type = MEDIA_TYPE.test(mimeType) ? mimeType : "application/octet-stream";
  const essence = type.split(";")[0]!.trim();
  const headers = new Headers({
    "Content-Type": type,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": DOWNLOAD_POLICY,
  });
  if (!INLINE.test(essence))
    headers.set("Content-Disposition", `attachment; filename="${id.replace(/[^\w.-]/g, "_")}"`);
  if (sizeBytes !== undefined) headers.set("Content-Length", String(sizeBytes));
  return headers;
}
