import { describe, expect, it } from "vitest";
import { PAGE_HEADERS, createNonce, pageContentSecurityPolicy } from "./page-security-headers";

describe("page security headers", () => {
  it("makes a fresh, unguessable nonce per call", () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it("allows scripts from this origin or with the nonce, and nothing from outside", () => {
    const policy = pageContentSecurityPolicy("abc123");
    const directives = new Map(
      policy.split("; ").map((directive) => {
        const [name, ...values] = directive.split(" ");
        return [name!, values];
      }),
    );
    expect(directives.get("script-src")).toEqual(["'self'", "'nonce-abc123'"]);
    expect(directives.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    expect(directives.get("connect-src")).toEqual(["'self'", "blob:"]);
    expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
    expect(directives.get("object-src")).toEqual(["'none'"]);
    // No directive names another host or a wildcard.
    expect(policy).not.toMatch(/https?:|\*/);
    expect(PAGE_HEADERS["X-Frame-Options"]).toBe("DENY");
  });

  it("allows eval only for next dev", () => {
    expect(pageContentSecurityPolicy("n")).not.toContain("unsafe-eval");
    expect(pageContentSecurityPolicy("n", true)).toContain("'unsafe-eval'");
  });
});
