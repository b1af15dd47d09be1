import { describe, expect, it } from "vitest";
import { Counter, Gauge, Histogram, MetricsRegistry } from "./metrics-registry";

describe("metrics registry", () => {
  it("writes counters, gauges and cumulative histograms in the Prometheus text format", () => {
    const registry = new MetricsRegistry();
    const requests = registry.register(new Counter("r_total", "Requests.", ["op", "status"]));
    const open = registry.register(new Gauge("open", "Open.", ["op"]));
    const latency = registry.register(new Histogram("lat_seconds", "Latency.", ["op"], [0.1, 1]));
    requests.inc(["generateContent", "200"]);
    requests.inc(["generateContent", "200"], 2);
    requests.inc(['we"ird\\op\n', "500"]);
    open.add(["stream"], 1);
    latency.observe(["g"], 0.05);
    latency.observe(["g"], 0.5);
    latency.observe(["g"], 5);
    expect(registry.exposition()).toBe(
      [
        "# HELP r_total Requests.",
        "# TYPE r_total counter",
        'r_total{op="generateContent",status="200"} 3',
        'r_total{op="we\\"ird\\\\op\\n",status="500"} 1',
        "# HELP open Open.",
        "# TYPE open gauge",
        'open{op="stream"} 1',
        "# HELP lat_seconds Latency.",
        "# TYPE lat_seconds histogram",
        'lat_seconds_bucket{op="g",le="0.1"} 1',
        'lat_seconds_bucket{op="g",le="1"} 2',
        'lat_seconds_bucket{op="g",le="+Inf"} 3',
        'lat_seconds_sum{op="g"} 5.55',
        'lat_seconds_count{op="g"} 3',
        "",
      ].join("\n"),
    );
  });

  it("folds label sets past its series limit into one series of 'other'", () => {
    const counter = new Counter("c_total", "C.", ["model"]);
    for (let index = 0; index < 2500; index++) counter.inc([`model-${index}`]);
    expect(counter.get(["model-1"])).toBe(1);
    expect(counter.get(["other"])).toBe(500);
    const lines: string[] = [];
    counter.write(lines);
    expect(lines.length).toBe(2 + 2001);
  });
});
