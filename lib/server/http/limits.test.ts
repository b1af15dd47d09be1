import { describe, expect, it } from "vitest";
import { releaseWhenDone } from "./limits";

describe("releaseWhenDone", () => {
  it("releases when the body has been read to the end, not before", async () => {
    let released = 0;
    const response = releaseWhenDone(
      new Response("data: {}\r\n\r\n"),
      () => released++,
      new AbortController().signal,
    );
    expect(released).toBe(0);
    expect(await response.text()).toBe("data: {}\r\n\r\n");
    expect(released).toBe(1);
  });

  it("releases when the client cancels the body or the request aborts", async () => {
    let released = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array([58, 10])),
    });
    const response = releaseWhenDone(
      new Response(endless),
      () => released++,
      new AbortController().signal,
    );
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(released).toBe(1);
    const controller = new AbortController();
    let releasedByAbort = 0;
    releaseWhenDone(new Response(new ReadableStream()), () => releasedByAbort++, controller.signal);
    controller.abort();
    expect(releasedByAbort).toBe(1);
  });
});
