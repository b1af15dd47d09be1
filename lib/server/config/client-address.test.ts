import { describe, expect, it } from "vitest";
import { parseTrustedProxies, resolveClientAddress, trustedProxyList } from "./client-address";

describe("client address", () => {
  const proxies = trustedProxyList(parseTrustedProxies("10.0.0.0/8, 127.0.0.1, fd00::/8"));

  it("is the socket's address unless the socket is a trusted proxy", () => {
    expect(resolveClientAddress("203.0.113.9", "198.51.100.1", proxies)).toBe("203.0.113.9");
    expect(resolveClientAddress("203.0.113.9", "198.51.100.1", null)).toBe("203.0.113.9");
    expect(resolveClientAddress("127.0.0.1", "198.51.100.1", null)).toBe("127.0.0.1");
    expect(resolveClientAddress(null, "198.51.100.1", proxies)).toBe("unknown");
  });

  it("walks X-Forwarded-For from the right past trusted proxies, never trusting what the client wrote", () => {
    expect(resolveClientAddress("::ffff:127.0.0.1", "198.51.100.1", proxies)).toBe("198.51.100.1");
    // The client claims 1.2.3.4; the first proxy saw 198.51.100.1; a second proxy saw the first.
    expect(resolveClientAddress("10.1.1.1", "1.2.3.4, 198.51.100.1, 10.2.2.2", proxies)).toBe(
      "198.51.100.1",
    );
    expect(resolveClientAddress("fd00::1", "2001:db8::7", proxies)).toBe("2001:db8::7");
    // Junk in the header stops the walk at the last address known.
    expect(resolveClientAddress("10.1.1.1", "not-an-address", proxies)).toBe("10.1.1.1");
    // Everything trusted: the leftmost.
    expect(resolveClientAddress("10.1.1.1", "10.3.3.3", proxies)).toBe("10.3.3.3");
  });

  it("refuses entries that are not addresses or CIDRs", () => {
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow("10.0.0.0/33");
    expect(() => parseTrustedProxies("proxy.internal")).toThrow("proxy.internal");
    expect(parseTrustedProxies(" 10.0.0.0/8 ,, ::1 ")).toEqual(["10.0.0.0/8", "::1"]);
  });
});
