import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import { readFilters } from "./query-filters";

const specs = {
  from: { kind: "day" },
  at: { kind: "time" },
  model: { kind: "text", max: 10 },
  limit: { kind: "integer", min: 1, max: 100 },
  format: { kind: "choice", values: ["csv", "jsonl"] },
} as const;

function failure(query: string): { field: string; status: number } {
  try {
    readFilters(new URL(`http://x/?${query}`), specs);
  } catch (error) {
    const apiError = error as ApiError;
    const details = apiError.details?.[0] as { fieldViolations: Array<{ field: string }> };
    return { field: details.fieldViolations[0]!.field, status: apiError.httpStatus };
  }
  throw new Error(`accepted ${query}`);
}

describe("report filters", () => {
  it("reads each filter in its form, blanks as absent", () => {
    expect(
      readFilters(
        new URL("http://x/?from=2025-06-01&at=2025-06-01T00:00:01Z&model=m&limit=5&format=csv"),
        specs,
      ),
    ).toEqual({
      from: "2025-06-01",
      at: Date.UTC(2025, 5, 1, 0, 0, 1),
      model: "m",
      limit: 5,
      format: "csv",
    });
    expect(readFilters(new URL("http://x/?model=&at=1000"), specs)).toEqual({ at: 1000 });
  });

  it("refuses bad values with a 400 naming the field", () => {
    expect(failure("from=2025-02-30")).toEqual({ field: "from", status: 400 });
    expect(failure("from=yesterday")).toEqual({ field: "from", status: 400 });
    expect(failure("at=soon")).toEqual({ field: "at", status: 400 });
    expect(failure("model=abcdefghijk")).toEqual({ field: "model", status: 400 });
    expect(failure("limit=0")).toEqual({ field: "limit", status: 400 });
    expect(failure("limit=1e3")).toEqual({ field: "limit", status: 400 });
    expect(failure("format=xml")).toEqual({ field: "format", status: 400 });
    expect(failure("personid=x")).toEqual({ field: "personid", status: 400 });
    expect(failure("model=a&model=b")).toEqual({ field: "model", status: 400 });
  });
});
