/**
 * Worker thread that reads large JSON request bodies: JSON.parse, the nesting limit
 * and the operation's canonical read (zod) each hold their thread for the whole body at once,
 * hundreds of milliseconds for megabytes of small objects; here they hold no request. The
 * canonical request goes back as JSON pieces in a buffer handed over (json-pieces.ts), which
 * the request's thread reads a piece at a time.
 * Bundled by Next (started with `new URL(..., import.meta.url)` in body-reader-client.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import { lowerThisThreadPriority } from "@/lib/runtime/thread-priority.mjs";
import {
  answerBodyReaderRequest,
  replyTransferList,
  type BodyReaderReply,
  type BodyReaderRequest,
} from "./body-readers";

if (workerData?.lane === "bulk") lowerThisThreadPriority();
const port = parentPort!;
port.on("message", (request: BodyReaderRequest) => {
  const reply = answerBodyReaderRequest(request);
  port.postMessage(reply, replyTransferList(reply));
});
port.postMessage({ id: 0, kind: "ready" } satisfies BodyReaderReply);
