import "server-only";
import type { TransportFault } from "@/lib/engine/emulator/faults";

/**
 * The HTTP answer of a scripted transport fault. A bare status is that status with the given
 * text and no error body. A reset is a response whose body fails before its first byte: the
 * server then destroys the connection without sending headers, so the client sees the
 * connection closed with no answer, as when a proxy or the network drops it.
 */
export function transportFaultResponse(error: TransportFault): Response {
  if (error.fault.kind === "status") {
    return new Response(error.fault.bodyText, {
      status: error.fault.httpStatus,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "private, no-store",
      },
    });
  }
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new DOMException("connection reset by a scenario", "AbortError"));
      },
    }),
    { status: 200, headers: { "Content-Type": "application/json; charset=UTF-8" } },
  );
}
