import { describe, expect, it } from "vitest";
import { readPageQuery } from "./page-query";

const read = (query: string) => readPageQuery(new URL(`http://studio.test/v1beta/files${query}`));

describe("readPageQuery", () => {
  it("reads either spelling, leaves an unset or 0 size unset and does not coerce a large one", () => {
    expect(read("")).toEqual({});
    expect(read("?pageSize=0&pageToken=abc")).toEqual({ pageToken: "abc" });
    expect(read("?page_size=7&page_token=t")).toEqual({ pageSize: 7, pageToken: "t" });
    expect(read("?pageSize=5000")).toEqual({ pageSize: 5000 });
  });

  it("refuses what the service's int32 field refuses, naming page_size", () => {
    for (const bad of ["abc", "1.5", "2147483648", "99999999999999999999", "-1"]) {
      expect(() => read(`?pageSize=${bad}`)).toThrow(
        expect.objectContaining({
          httpStatus: 400,
          details: [
            expect.objectContaining({
              fieldViolations: [expect.objectContaining({ field: "page_size" })],
            }),
          ],
        }),
      );
    }
  });
});
