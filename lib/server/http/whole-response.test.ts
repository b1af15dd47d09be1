import { describe, expect, it } from "vitest";
import { smallJsonResponse } from "./responses";
import { WholeResponse } from "./whole-response";

const WHOLE_BODY = Symbol.for("genstudio.wholeResponseBody");
const bytesOf = (response: Response) =>
  (response as Response & { [WHOLE_BODY]?: Uint8Array })[WHOLE_BODY];

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
