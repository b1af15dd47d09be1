import { describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-error";

describe("ApiError across module copies", () => {
  it("recognises an ApiError made by another copy of the module, and keeps subclass checks strict", async () => {
    vi.resetModules();
    const copy = "./api-error?copy";
    const other = (await import(/* @vite-ignore */ copy)) as typeof import("./api-error");
    const foreign = new other.ApiError(400, "INVALID_ARGUMENT", "from the other copy");
    expect(other.ApiError).not.toBe(ApiError);
    expect(foreign instanceof ApiError).toBe(true);
    expect(new ApiError(403, "PERMISSION_DENIED", "x") instanceof other.ApiError).toBe(true);
    expect(new Error("plain") instanceof ApiError).toBe(false);
    expect((null as unknown as object) instanceof ApiError).toBe(false);
    class Narrower extends ApiError {}
    expect(new ApiError(500, "INTERNAL", "x") instanceof Narrower).toBe(false);
    expect(new Narrower(500, "INTERNAL", "x") instanceof Narrower).toBe(true);
    expect(new Narrower(500, "INTERNAL", "x") instanceof ApiError).toBe(true);
  });
});
