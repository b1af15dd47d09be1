import { describe, expect, it } from "vitest";
import { jsonResponse } from "./responses";

describe("jsonResponse", () => {
  it("pretty-prints a short answer as the service does", async () => {
    const body = { totalTokens: 12, promptTokensDetails: [{ modality: "TEXT", tokenCount: 12 }] };
    const response = await jsonResponse(body, { status: 201, headers: { "X-Test": "yes" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    expect(response.headers.get("x-test")).toBe("yes");
    expect(await response.text()).toBe(`${JSON.stringify(body, null, 2)}\n`);
  });

  it("writes a long answer in slices, letting the event loop run, and sends it whole", async () => {
    const body = {
      inlinedResponses: Array.from({ length: 150_000 }, (_, index) => ({
        response: { text: `answer ${index}`, tokens: index },
      })),
    };
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    let response: Response;
    try {
      response = await jsonResponse(body, { status: 202 });
    } finally {
      clearInterval(timer);
    }
    expect(turns).toBeGreaterThan(0);
    expect(response.status).toBe(202);
    expect(JSON.parse(await response.text())).toEqual(body);
  });
});
