import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error";
import {
  formatDuration,
  formatTimestamp,
  formatTimestampDigits,
  parseDuration,
  parseTimestamp,
} from "./wire-time";

function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

describe("parseDuration", () => {
  it("reads whole and fractional seconds up to nine digits", () => {
    expect(parseDuration("3600s", "ttl")).toBe(3_600_000);
    expect(parseDuration("0s", "ttl")).toBe(0);
    expect(parseDuration("1.5s", "ttl")).toBe(1500);
    expect(parseDuration("0.000000001s", "ttl")).toBeCloseTo(0.000001, 12);
    expect(parseDuration("2.123456789s", "ttl")).toBeCloseTo(2123.456789, 9);
    expect(parseDuration("-5s", "offset")).toBe(-5000);
  });

  it.each(["1h", "3600", "s", "1.s", ".5s", "1.1234567891s", " 1s", "1 s", "1e3s", "+1s"])(
    "refuses %j with a 400 naming the field",
    (text) => {
      const error = errorOf(() => parseDuration(text, "cached_content.ttl"));
      expect(error.httpStatus).toBe(400);
      expect(error.rpcStatus).toBe("INVALID_ARGUMENT");
      expect(error.message).toBe(
        `Invalid value at 'cached_content.ttl' (type.googleapis.com/google.protobuf.Duration), ${JSON.stringify(text)}: a duration is seconds with up to 9 fractional digits followed by "s", like "3600s" or "1.5s".`,
      );
      expect(error.toBody().error.details).toEqual([
        {
          "@type": "type.googleapis.com/google.rpc.BadRequest",
          fieldViolations: [
            {
              field: "cached_content.ttl",
              description:
                'a duration is seconds with up to 9 fractional digits followed by "s", like "3600s" or "1.5s".',
            },
          ],
        },
      ]);
    },
  );

  it("refuses durations past protobuf's bound", () => {
    expect(errorOf(() => parseDuration("315576000001s", "ttl")).message).toBe(
      `Invalid value at 'ttl' (type.googleapis.com/google.protobuf.Duration), "315576000001s": a duration is at most 315576000000s.`,
    );
    expect(parseDuration("315576000000s", "ttl")).toBe(315_576_000_000_000);
  });
});

describe("parseTimestamp", () => {
  const noon = Date.UTC(2025, 0, 31, 12, 0, 0);

  it("reads Z and any offset", () => {
    expect(parseTimestamp("2025-01-31T12:00:00Z", "expire_time")).toBe(noon);
    expect(parseTimestamp("2025-01-31t12:00:00z", "expire_time")).toBe(noon);
    expect(parseTimestamp("2025-01-31T13:00:00+01:00", "expire_time")).toBe(noon);
    expect(parseTimestamp("2025-01-31T17:30:00+05:30", "expire_time")).toBe(noon);
    expect(parseTimestamp("2025-01-31T04:00:00-08:00", "expire_time")).toBe(noon);
    expect(parseTimestamp("2025-01-31T12:00:00+00:00", "expire_time")).toBe(noon);
  });

  it("reads 0 to 9 fractional digits, keeping milliseconds", () => {
    expect(parseTimestamp("2025-01-31T12:00:00.5Z", "t")).toBe(noon + 500);
    expect(parseTimestamp("2025-01-31T12:00:00.25Z", "t")).toBe(noon + 250);
    expect(parseTimestamp("2025-01-31T12:00:00.123Z", "t")).toBe(noon + 123);
    expect(parseTimestamp("2025-01-31T12:00:00.123456Z", "t")).toBe(noon + 123);
    expect(parseTimestamp("2025-01-31T12:00:00.999999999Z", "t")).toBe(noon + 999);
  });

  it("knows the calendar", () => {
    expect(parseTimestamp("2024-02-29T00:00:00Z", "t")).toBe(Date.UTC(2024, 1, 29));
    expect(parseTimestamp("2000-02-29T00:00:00Z", "t")).toBe(Date.UTC(2000, 1, 29));
    expect(parseTimestamp("0001-01-01T00:00:00Z", "t")).toBe(-62135596800000);
    expect(parseTimestamp("9999-12-31T23:59:59Z", "t")).toBe(253402300799000);
  });

  it.each([
    "2023-02-29T00:00:00Z",
    "1900-02-29T00:00:00Z",
    "2025-04-31T00:00:00Z",
    "2025-13-01T00:00:00Z",
    "2025-00-01T00:00:00Z",
    "2025-01-01T24:00:00Z",
    "2025-01-01T00:60:00Z",
    "2025-01-01T00:00:60Z",
    "0000-01-01T00:00:00Z",
    "2025-01-01T00:00:00+24:00",
  ])("refuses the impossible date %s", (text) => {
    const error = errorOf(() => parseTimestamp(text, "expire_time"));
    expect(error.httpStatus).toBe(400);
    expect(error.message).toBe(
      `Invalid value at 'expire_time' (type.googleapis.com/google.protobuf.Timestamp), "${text}": the date or time of day does not exist; a timestamp is RFC 3339, like "2025-01-31T12:00:00Z" or "2025-01-31T13:00:00.5+01:00".`,
    );
  });

  it.each([
    "2025-01-31",
    "2025-01-31T12:00:00",
    "2025-01-31 12:00:00Z",
    "2025-01-31T12:00Z",
    "2025-01-31T12:00:00.Z",
    "2025-01-31T12:00:00.1234567890Z",
    "2025-01-31T12:00:00+0100",
    "tomorrow",
  ])("refuses the malformed %s", (text) => {
    const error = errorOf(() => parseTimestamp(text, "expire_time"));
    expect(error.message).toBe(
      `Invalid value at 'expire_time' (type.googleapis.com/google.protobuf.Timestamp), ${JSON.stringify(text)}: a timestamp is RFC 3339, like "2025-01-31T12:00:00Z" or "2025-01-31T13:00:00.5+01:00".`,
    );
  });
});

describe("formatTimestamp", () => {
  it("writes UTC with Z and 0 or 3 fractional digits", () => {
    expect(formatTimestamp(0)).toBe("1970-01-01T00:00:00Z");
    expect(formatTimestamp(Date.UTC(2025, 0, 31, 12))).toBe("2025-01-31T12:00:00Z");
    expect(formatTimestamp(Date.UTC(2025, 0, 31, 12) + 5)).toBe("2025-01-31T12:00:00.005Z");
    expect(formatTimestamp(Date.UTC(2025, 0, 31, 12) + 5.9)).toBe("2025-01-31T12:00:00.005Z");
  });

  it("round-trips through parseTimestamp", () => {
    for (const milliseconds of [0, 1, 999, 1_700_000_000_123, -1_000_000_000_000]) {
      expect(parseTimestamp(formatTimestamp(milliseconds), "t")).toBe(milliseconds);
    }
  });

  it("refuses a time that is not one", () => {
    expect(() => formatTimestamp(Number.NaN)).toThrow(RangeError);
  });
});

describe("formatTimestampDigits", () => {
  it("writes exactly the digits asked for, zeros past the millisecond", () => {
    const noon = Date.UTC(2026, 4, 29, 18, 8, 12);
    expect(formatTimestampDigits(noon + 860, 6)).toBe("2026-05-29T18:08:12.860000Z");
    expect(formatTimestampDigits(noon, 9)).toBe("2026-05-29T18:08:12.000000000Z");
    expect(formatTimestampDigits(noon + 5, 3)).toBe("2026-05-29T18:08:12.005Z");
    expect(parseTimestamp(formatTimestampDigits(noon + 860, 9), "t")).toBe(noon + 860);
  });
});

describe("formatDuration", () => {
  it("writes whole seconds bare and fractions in groups of three digits", () => {
    expect(formatDuration(3_600_000)).toBe("3600s");
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(1500)).toBe("1.500s");
    expect(formatDuration(1)).toBe("0.001s");
    expect(formatDuration(0.25)).toBe("0.000250s");
    expect(formatDuration(0.000001)).toBe("0.000000001s");
    expect(formatDuration(-2500)).toBe("-2.500s");
  });

  it("round-trips through parseDuration", () => {
    for (const text of ["3600s", "1.500s", "0.000250s", "86400.123456789s"]) {
      expect(formatDuration(parseDuration(text, "ttl"))).toBe(text);
    }
  });
});
