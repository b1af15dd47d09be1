/**
 * Prints the client conformance suite (e2e/clients) as a matrix at the end of a Playwright
 * run: per client and mode, how many cases passed, failed and were skipped, and why each
 * skipped case was skipped. Any failure already fails the run; this only makes it readable.
 */
import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";

interface Row {
  passed: number;
  failed: number;
  skipped: number;
  milliseconds: number;
}

const TITLE = /^client (?<client>.+) \[(?<mode>[^\]]+)\]$/;

export default class ClientMatrixReporter implements Reporter {
  private readonly rows = new Map<string, Map<string, Row>>();
  /** Per client, each skip reason with the cases it skipped. */
  private readonly skipReasons = new Map<string, Map<string, Set<string>>>();
  private readonly modes: string[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    const match = TITLE.exec(test.parent.title);
    if (!match?.groups) return;
    const { client, mode } = match.groups as { client: string; mode: string };
    if (!this.modes.includes(mode)) this.modes.push(mode);
    const modes = this.rows.get(client) ?? new Map<string, Row>();
    this.rows.set(client, modes);
    const row = modes.get(mode) ?? { passed: 0, failed: 0, skipped: 0, milliseconds: 0 };
    modes.set(mode, row);
    row.milliseconds += result.duration;
    if (result.status === "passed") row.passed += 1;
    else if (result.status === "skipped") {
      row.skipped += 1;
      const reason = test.annotations.find((annotation) => annotation.type === "skip")?.description;
      const reasons = this.skipReasons.get(client) ?? new Map<string, Set<string>>();
      this.skipReasons.set(client, reasons);
      const cases = reasons.get(reason ?? "skipped") ?? new Set<string>();
      reasons.set(reason ?? "skipped", cases.add(test.title));
    } else row.failed += 1;
  }

  onEnd(): void {
    if (this.rows.size === 0) return;
    const cell = (row: Row | undefined) => {
      if (!row) return "not run";
      const ran = row.passed + row.failed;
      const verdict = row.failed ? "FAIL" : ran ? "pass" : "skipped";
      return (
        `${verdict} ${row.passed}/${ran}${row.skipped ? ` (+${row.skipped} skipped)` : ""}` +
        ` ${(row.milliseconds / 1000).toFixed(1)} s`
      );
    };
    const width = Math.max(...[...this.rows.keys()].map((client) => client.length));
    const lines = ["", "Client conformance (e2e/clients): cases passed per client and mode"];
    lines.push(
      `  ${"client".padEnd(width)}  ${this.modes.map((mode) => mode.padEnd(34)).join("")}`,
    );
    for (const [client, modes] of this.rows) {
      lines.push(
        `  ${client.padEnd(width)}  ${this.modes.map((mode) => cell(modes.get(mode)).padEnd(34)).join("")}`,
      );
    }
    for (const [client, reasons] of this.skipReasons)
      for (const [reason, cases] of reasons)
        lines.push(`  skipped, ${client}, ${cases.size} case(s): ${reason}`);
    process.stdout.write(`${lines.join("\n")}\n\n`);
  }
}
