/**
 * The resumable upload protocol's chunk size: the service answers a start with
 * `X-Goog-Upload-Chunk-Granularity: 8388608` (recorded), and every chunk but the last is a
 * multiple of it. The gateway and the local engine advertise it; the browser's uploader sends
 * chunks of it.
 */
export const UPLOAD_CHUNK_GRANULARITY = 8 * 1024 * 1024;
