import { describe, expect, it } from "vitest";
import { MAX_TRACE_EVENTS, recordTrace, tokensPerSecond, traceTiming } from "./answer-trace";

function clock() {
  let time = 1000;
  return { now: () => time, advance: (milliseconds: number) => (time += milliseconds) };
}

describe("answer trace", () => {
  it("records headers, events with arrival times, the first token and the end", () => {
    const time = clock();
    const recorder = recordTrace(
      {
        model: "models/m",
        url: "/v1beta/models/m:streamGenerateContent?alt=sse",
        request: { contents: [] },
      },
      time.now,
    );
    time.advance(40);
    recorder.observer.onResponse!(
      new Response("", { status: 200, headers: { "content-type": "text/event-stream" } }),
    );
    time.advance(10);
    recorder.observer.onEvent!('{"usageMetadata":{"promptTokenCount":3}}');
    time.advance(25);
    recorder.observer.onEvent!('{"candidates":[{"content":{"parts":[{"text":"Hi"}]}}]}');
    time.advance(100);
    const trace = recorder.end();
    expect(trace.status).toBe(200);
    expect(trace.headers).toContainEqual(["content-type", "text/event-stream"]);
    expect(trace.headersAt).toBe(40);
    expect(trace.events.map((event) => event.at)).toEqual([50, 75]);
    expect(trace.firstTokenAt).toBe(75);
    expect(traceTiming(trace)).toEqual({ firstTokenMs: 75, totalMs: 175 });
    expect(tokensPerSecond({ firstTokenMs: 75, totalMs: 175 }, { candidatesTokenCount: 10 })).toBe(
      100,
    );
  });

  it("keeps a bounded number of events and counts the rest", () => {
    const recorder = recordTrace({ model: "m", url: "u", request: { contents: [] } }, () => 0);
    for (let index = 0; index < MAX_TRACE_EVENTS + 5; index++) recorder.observer.onEvent!("{}");
    expect(recorder.trace().events).toHaveLength(MAX_TRACE_EVENTS);
    expect(recorder.trace().droppedEvents).toBe(5);
  });

  it("keeps a failure's body as sent, and has no first token without answer parts", () => {
    const recorder = recordTrace({ model: "m", url: "u", request: { contents: [] } }, () => 0);
    recorder.observer.onErrorBody!('{"error":{"code":429}}');
    const trace = recorder.end();
    expect(trace.errorBody).toBe('{"error":{"code":429}}');
    expect(traceTiming(trace).firstTokenMs).toBeUndefined();
    expect(tokensPerSecond(traceTiming(trace), { candidatesTokenCount: 5 })).toBeNull();
  });
});
