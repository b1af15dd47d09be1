import { describe, expect, it } from "vitest";
import { newResponseId } from "./response-id";

function decode(id: string): { seconds: number; varints: number[] } {
  const bytes = Buffer.from(id, "base64url");
  const varints: number[] = [];
  let value = 0;
  let scale = 1;
  for (const byte of bytes.subarray(4)) {
    value += (byte & 0x7f) * scale;
    scale *= 0x80;
    if (byte < 0x80) {
      varints.push(value);
      value = 0;
      scale = 1;
    }
  }
  return { seconds: bytes.readUInt32LE(0), varints };
}

describe("newResponseId", () => {
  it("writes the service's 22 or 23 base64url characters", () => {
    const lengths = new Set<number>();
    for (let index = 0; index < 500; index++) {
      const id = newResponseId();
      expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
      lengths.add(id.length);
    }
    expect([...lengths].every((length) => length === 22 || length === 23)).toBe(true);
    // The first milliseconds of a second give a short microseconds field: still 22.
    for (let index = 0; index < 200; index++)
      expect(newResponseId(Date.UTC(2026, 0, 1) + (index % 16)).length).toBeGreaterThanOrEqual(22);
  });

  it("decodes as the service's do: seconds, microseconds and two identifiers", () => {
    const made = Date.UTC(2026, 4, 29, 18, 8, 12, 860);
    const { seconds, varints } = decode(newResponseId(made));
    expect(seconds).toBe(Math.floor(made / 1000));
    expect(varints).toHaveLength(3);
    expect(Math.floor(varints[0]! / 1000)).toBe(860);
  });

  it("decodes a recorded id the same way", () => {
    const { seconds, varints } = decode("LSYaav29OI_h_uMP95-a6AM");
    expect(new Date(seconds * 1000).toISOString()).toBe("2026-05-29T23:50:05.000Z");
    expect(varints).toHaveLength(3);
    expect(varints[0]).toBeLessThan(1_000_000);
  });
});
