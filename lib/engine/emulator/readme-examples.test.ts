import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** The README shows the examples e2e/emulator-examples.spec.ts runs, word for word. */
describe("the README's examples of testing a client against Genstudio", () => {
  const readme = readFileSync("README.md", "utf8");
  for (const [file, fence] of [
    ["test_weather_client.py", "python"],
    ["weather-client.test.ts", "ts"],
    ["curl.sh", "sh"],
  ] as const) {
    it(`shows ${file} as it is`, () => {
      const text = readFileSync(`examples/testing-against-genstudio/${file}`, "utf8");
      expect(readme).toContain("```" + fence + "\n" + text + "```");
    });
  }
});
