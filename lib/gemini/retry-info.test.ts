import { describe, expect, it } from "vitest";
import { parseDurationMs, retryInfoDelayMs, retryInfoFromHeader } from "./retry-info";

describe("parseDurationMs", () => {
  it("reads protobuf durations", () => {
    expect(parseDurationMs("3s")).toBe(3000);
    expect(parseDurationMs("0.250s")).toBe(250);
    expect(parseDurationMs("1.000000001s")).toBe(1000);
    expect(parseDurationMs("3")).toBeNull();
    expect(parseDurationMs("soon")).toBeNull();
  });
});

describe("retryInfoDelayMs", () => {
  it("reads the first RetryInfo detail among others", () => {
    expect(
      retryInfoDelayMs([
        { "@type": "type.googleapis.com/google.rpc.Help", links: [] },
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "12.5s" },
      ]),
    ).toBe(12_500);
    expect(retryInfoDelayMs(undefined)).toBeNull();
    expect(
      retryInfoDelayMs([{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "x" }]),
    ).toBeNull();
  });

  it("turns a Retry-After header of seconds into a RetryInfo detail", () => {
    expect(retryInfoFromHeader(" 30 ")).toEqual({
      "@type": "type.googleapis.com/google.rpc.RetryInfo",
      retryDelay: "30s",
    });
    expect(retryInfoFromHeader("Wed, 21 Oct 2026 07:28:00 GMT")).toBeNull();
    expect(retryInfoFromHeader(null)).toBeNull();
  });
});
