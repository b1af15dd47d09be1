import { describe, expect, it } from "vitest";
import { fromAnotherOrigin } from "./request-origin";

function request(headers: Record<string, string>): Request {
  return new Request("http://studio.example:3000/api/conversations", {
    method: "POST",
    headers: { host: "studio.example:3000", ...headers },
  });
}

describe("fromAnotherOrigin", () => {
  it("refuses a foreign Origin whatever Sec-Fetch-Site says", () => {
    for (const fetchSite of ["none", "same-origin", "same-site", "cross-site", undefined]) {
      const headers: Record<string, string> = { origin: "https://evil.example" };
      if (fetchSite) headers["sec-fetch-site"] = fetchSite;
      expect(fromAnotherOrigin(request(headers)), String(fetchSite)).toBe(true);
    }
  });

  it("refuses an opaque or unreadable Origin", () => {
    expect(fromAnotherOrigin(request({ origin: "null", "sec-fetch-site": "none" }))).toBe(true);
    expect(fromAnotherOrigin(request({ origin: "::junk" }))).toBe(true);
  });

  it("refuses a page of another site that sends no Origin", () => {
    expect(fromAnotherOrigin(request({ "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(fromAnotherOrigin(request({ "sec-fetch-site": "same-site" }))).toBe(true);
  });

  it("accepts our own pages, a typed address and programs", () => {
    const own = { origin: "http://studio.example:3000" };
    expect(fromAnotherOrigin(request({ ...own, "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(fromAnotherOrigin(request(own))).toBe(false);
    expect(fromAnotherOrigin(request({ "sec-fetch-site": "none" }))).toBe(false);
    expect(fromAnotherOrigin(request({}))).toBe(false);
  });

  it("refuses our host's name on another port", () => {
    expect(fromAnotherOrigin(request({ origin: "http://studio.example:4000" }))).toBe(true);
  });
});
