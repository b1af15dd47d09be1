import "server-only";
/**
 * The streamed generation without `alt=sse`: a JSON array of GenerateContentResponse written
 * element by element (`[{...},\r\n{...}]`). It shares the SSE writer's machinery (first-chunk
 * errors as HTTP errors, abort handling, error element after a mid-stream failure).
 */
export { jsonArrayStreamResponse } from "./sse-response";
