import { describe, expect, it } from "vitest";
import { isLoopbackHost } from "./loopback";

describe("isLoopbackHost", () => {
  it.each(["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]", "::ffff:127.0.0.1"])(
    "%s is loopback",
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );
  it.each(["0.0.0.0", "::", "192.168.1.10", "example.com", "127.0.0.1.evil.com", "10.0.0.1"])(
    "%s is not",
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});
