/**
 * Worker thread that reads large JSON request bodies: JSON.parse, the nesting limit
 * and the operation's canonical read (zod) each hold their thread for the whole body at once,
 * hundreds of milliseconds for megabytes of small objects; here they hold no request. The
 * canonical request goes back as JSON text, which the request's thread parses in slices.
 * Bundled by Next (started with `new URL(..., import.meta.url)` in body-reader-client.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import { lowerThisThreadPriority } from "@/lib/runtime/thread-priority.mjs";
import {
  answerBodyReaderRequest,
  type BodyReaderReply,
  type BodyReaderRequest,
} from "./body-readers";
import { setAsideBuffers } from "./long-strings";

if (workerData?.lane === "bulk") lowerThisThreadPriority();
const port = parentPort!;
port.on("message", (request: BodyReaderRequest) => {
  const reply = answerBodyReaderRequest(request);
  // A forwarded body's bytes go back as they came, and inline data as its bytes, handed over
  // rather than copied.
  const bytes = reply.kind === "value" ? (reply.bytes ?? []) : [];
  const setAside = reply.kind === "value" ? setAsideBuffers(reply.long ?? []) : [];
  port.postMessage(reply, [...bytes.map((piece) => piece.buffer as ArrayBuffer), ...setAside]);
});
port.postMessage({ id: 0, kind: "ready" } satisfies BodyReaderReply);
