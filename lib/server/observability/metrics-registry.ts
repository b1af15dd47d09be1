/**
 * Counters, gauges and histograms kept in this process's memory and written in the Prometheus
 * text exposition format (version 0.0.4). Recording is a map lookup and an addition: nothing
 * on a request's path waits for anything. Each metric has fixed label names; a label set is a
 * series, found by its values joined. A metric holds at most MAX_SERIES series: past that, new
 * label sets are counted in one series whose labels all read "other", so values a client
 * chooses can never grow memory without bound.
 */

const MAX_SERIES = 2000;
const OTHER = "other";

type Kind = "counter" | "gauge" | "histogram";

interface Series {
  labels: readonly string[];
  value: number;
  /** Histograms: cumulative counts per bucket are computed when written; here, per bucket. */
  buckets?: number[];
  sum?: number;
}

/** A label value as the exposition format quotes it. */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

abstract class Metric {
  protected readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly kind: Kind,
  ) {}

  protected seriesOf(values: readonly string[]): Series {
    const id = values.join("\u0000");
    let found = this.series.get(id);
    if (found) return found;
    if (this.series.size >= MAX_SERIES) {
      const other = this.labelNames.map(() => OTHER);
      const otherId = other.join("\u0000");
      found = this.series.get(otherId);
      if (found) return found;
      found = this.newSeries(other);
      this.series.set(otherId, found);
      return found;
    }
    found = this.newSeries(values);
    this.series.set(id, found);
    return found;
  }

  protected newSeries(labels: readonly string[]): Series {
    return { labels: [...labels], value: 0 };
  }

  protected labelText(labels: readonly string[], extra?: [string, string]): string {
    const pairs = this.labelNames.map((name, index) => `${name}="${escapeLabel(labels[index]!)}"`);
    if (extra) pairs.push(`${extra[0]}="${escapeLabel(extra[1])}"`);
    return pairs.length ? `{${pairs.join(",")}}` : "";
  }

  /** The metric in the exposition format: HELP, TYPE and one line per series (or bucket). */
  write(lines: string[]): void {
    lines.push(`# HELP ${this.name} ${this.help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}`);
    lines.push(`# TYPE ${this.name} ${this.kind}`);
    this.writeSeries(lines);
  }

  protected writeSeries(lines: string[]): void {
    for (const series of this.series.values())
      lines.push(`${this.name}${this.labelText(series.labels)} ${formatNumber(series.value)}`);
  }

  /** Forgets every series (tests). */
  reset(): void {
    this.series.clear();
  }
}

export class Counter extends Metric {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, labelNames, "counter");
  }

  inc(values: readonly string[] = [], amount = 1): void {
    if (amount < 0 || !Number.isFinite(amount)) return;
    this.seriesOf(values).value += amount;
  }

  /** The current value of one series (tests and summaries). */
  get(values: readonly string[] = []): number {
    return this.series.get(values.join("\u0000"))?.value ?? 0;
  }
}

export class Gauge extends Metric {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, labelNames, "gauge");
  }

  add(values: readonly string[], amount: number): void {
    this.seriesOf(values).value += amount;
  }

  set(values: readonly string[], value: number): void {
    this.seriesOf(values).value = value;
  }

  get(values: readonly string[] = []): number {
    return this.series.get(values.join("\u0000"))?.value ?? 0;
  }
}

export class Histogram extends Metric {
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    /** Upper bounds, ascending; +Inf is added when written. */
    readonly bounds: readonly number[],
  ) {
    super(name, help, labelNames, "histogram");
  }

  protected override newSeries(labels: readonly string[]): Series {
    return { labels: [...labels], value: 0, sum: 0, buckets: this.bounds.map(() => 0) };
  }

  observe(values: readonly string[], amount: number): void {
    if (!Number.isFinite(amount)) return;
    const series = this.seriesOf(values);
    series.value++;
    series.sum! += amount;
    // The first bound at or above the amount; counts are made cumulative when written.
    let index = 0;
    while (index < this.bounds.length && amount > this.bounds[index]!) index++;
    if (index < this.bounds.length) series.buckets![index]!++;
  }

  /** Observations of one series so far (tests). */
  count(values: readonly string[] = []): number {
    return this.series.get(values.join("\u0000"))?.value ?? 0;
  }

  protected override writeSeries(lines: string[]): void {
    for (const series of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, index) => {
        cumulative += series.buckets![index]!;
        lines.push(
          `${this.name}_bucket${this.labelText(series.labels, ["le", formatNumber(bound)])} ${cumulative}`,
        );
      });
      lines.push(
        `${this.name}_bucket${this.labelText(series.labels, ["le", "+Inf"])} ${series.value}`,
      );
      lines.push(`${this.name}_sum${this.labelText(series.labels)} ${formatNumber(series.sum!)}`);
      lines.push(`${this.name}_count${this.labelText(series.labels)} ${series.value}`);
    }
  }
}

/** Metrics written together, in the order they were registered. */
export class MetricsRegistry {
  private readonly metrics: Metric[] = [];

  register<T extends Metric>(metric: T): T {
    this.metrics.push(metric);
    return metric;
  }

  /** Every metric in the Prometheus text format. */
  exposition(): string {
    const lines: string[] = [];
    for (const metric of this.metrics) metric.write(lines);
    return lines.join("\n") + "\n";
  }

  reset(): void {
    for (const metric of this.metrics) metric.reset();
  }
}
