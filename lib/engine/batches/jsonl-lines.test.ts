import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { countJsonlLines, readJsonlLines, type JsonlLine } from "./jsonl-lines";

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-jsonl-test-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function fileOf(content: string | Buffer): string {
  const file = path.join(dir, "input.jsonl");
  fs.writeFileSync(file, content);
  return file;
}

async function lines(file: string, start = 0, maxLineBytes = 1024): Promise<JsonlLine[]> {
  const found: JsonlLine[] = [];
  for await (const line of readJsonlLines(file, { start, maxLineBytes })) found.push(line);
  return found;
}

describe("JSONL lines", () => {
  it("reads non-blank lines with the byte offset after each, dropping CR and the byte order mark", async () => {
    const file = fileOf('\uFEFF{"a":1}\r\n\n   \n{"b":"é"}\n{"c":3}');
    const found = await lines(file);
    expect(found.map((line) => line.text)).toEqual(['{"a":1}', '{"b":"é"}', '{"c":3}']);
    const bytes = fs.readFileSync(file);
    expect(found[0]!.end).toBe(bytes.indexOf("\n") + 1);
    expect(found[2]!.end).toBe(bytes.length);
    expect(await countJsonlLines(file)).toBe(3);
  });

  it("resumes at a committed offset and reads exactly the rest", async () => {
    const file = fileOf('{"n":1}\n{"n":2}\n{"n":3}\n');
    const all = await lines(file);
    const rest = await lines(file, all[0]!.end);
    expect(rest.map((line) => line.text)).toEqual(['{"n":2}', '{"n":3}']);
    expect(await lines(file, all[2]!.end)).toEqual([]);
  });

  it("reports a line over the limit without holding it, and reads the next one", async () => {
    const long = `{"x":"${"y".repeat(5000)}"}`;
    const found = await lines(fileOf(`${long}\n{"ok":1}\n`), 0, 100);
    expect(found[0]).toMatchObject({ text: null, problem: "too-long" });
    expect(found[1]!.text).toBe('{"ok":1}');
  });

  it("reports a line that is not UTF-8", async () => {
    const found = await lines(fileOf(Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a, 0x31, 0x0a])));
    expect(found[0]).toMatchObject({ text: null, problem: "not-utf8" });
    expect(found[1]!.text).toBe("1");
  });

  it("splits lines that cross read chunks", async () => {
    const many = Array.from({ length: 20_000 }, (_, index) => `{"i":${index}}`);
    const found = await lines(fileOf(many.join("\n") + "\n"));
    expect(found.length).toBe(many.length);
    expect(found[12_345]!.text).toBe(many[12_345]);
  });
});
