import { describe, expect, it } from "vitest";
import { forwardedJsonResponse, smallJsonResponse } from "./responses";
import { WholeResponse } from "./whole-response";

const WHOLE_BODY = Symbol.for("genstudio.wholeResponseBody");
const WHOLE_HEADERS = Symbol.for("genstudio.wholeResponseHeaders");
const bytesOf = (response: Response) =>
  (response as Response & { [WHOLE_BODY]?: Uint8Array })[WHOLE_BODY];
const fixedHeadersOf = (response: Response) =>
  (response as Response & { [WHOLE_HEADERS]?: readonly string[] })[WHOLE_HEADERS];

describe("WholeResponse", () => {
  it("reads like any Response: status, headers, text, json", async () => {
    const response = smallJsonResponse({ totalTokens: 7 }, { status: 201 });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ totalTokens: 7 });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it("hands its bytes to the dispatch only while its web body is untouched", async () => {
    const response = new WholeResponse(new TextEncoder().encode("whole"), { status: 200 });
    expect(new TextDecoder().decode(bytesOf(response))).toBe("whole");
    const reader = response.body.getReader();
    expect(bytesOf(response)).toBeUndefined();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe("whole");
  });

  it("keeps a JSON answer's fixed headers as a list until someone reads its headers", async () => {
    const response = forwardedJsonResponse('{"totalTokens":7}');
    const listed = fixedHeadersOf(response);
    expect(listed).toEqual([
      "cache-control",
      "private, no-store",
      "content-type",
      "application/json; charset=UTF-8",
    ]);
    // The same headers as a JSON answer made with a Headers of its own, in the same order.
    const withHeaders = smallJsonResponse({}, { headers: {} });
    expect(fixedHeadersOf(withHeaders)).toBeUndefined();
    expect([...response.headers]).toEqual([...withHeaders.headers]);
    // Read, the headers may change: the list is no longer handed out, the change is kept.
    expect(fixedHeadersOf(response)).toBeUndefined();
    response.headers.set("retry-after", "3");
    expect(response.headers.get("retry-after")).toBe("3");
    expect(fixedHeadersOf(smallJsonResponse({ a: 1 }))).toBe(listed);
  });

  it("clones an answer of fixed headers with them, the clone's list its own to hand out", async () => {
    const response = smallJsonResponse({ ok: true });
    const copy = response.clone();
    expect(fixedHeadersOf(copy)).toEqual(fixedHeadersOf(response));
    expect(copy.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    expect(fixedHeadersOf(response)).toBeDefined();
    expect(await copy.json()).toEqual({ ok: true });
  });

  it("clones before it is read, and refuses to once it is", async () => {
    const response = new WholeResponse(new TextEncoder().encode("twice"), {
      status: 404,
      headers: { "x-kept": "yes" },
    });
    const copy = response.clone();
    expect(copy.status).toBe(404);
    expect(copy.headers.get("x-kept")).toBe("yes");
    expect(await copy.text()).toBe("twice");
    expect(await new Response(response.body).text()).toBe("twice");
    expect(() => response.clone()).toThrow(TypeError);
  });
});
