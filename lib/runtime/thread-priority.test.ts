import { readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { BULK_NICENESS } from "./thread-priority.mjs";

const linux = process.platform === "linux";

/** A thread's niceness as the kernel reports it (field 19 of its stat line). */
function nicenessOf(statLine: string): number {
  const fields = statLine.slice(statLine.lastIndexOf(")") + 2).split(" ");
  return Number(fields[16]);
}

function niceAfterLowering(): Promise<{ lowered: boolean; before: number; after: number }> {
  const moduleUrl = new URL("./thread-priority.mjs", import.meta.url).href;
  const source = `
    const { parentPort } = require("node:worker_threads");
    const { readFileSync } = require("node:fs");
    const stat = () => readFileSync("/proc/thread-self/stat", "utf8");
    import(${JSON.stringify(moduleUrl)}).then(({ lowerThisThreadPriority }) => {
      const before = stat();
      const lowered = lowerThisThreadPriority();
      parentPort.postMessage({ lowered, before, after: stat() });
    });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true });
    worker.once("message", (reply: { lowered: boolean; before: string; after: string }) => {
      void worker.terminate();
      resolve({
        lowered: reply.lowered,
        before: nicenessOf(reply.before),
        after: nicenessOf(reply.after),
      });
    });
    worker.once("error", reject);
  });
}

describe.runIf(linux)("lowerThisThreadPriority", () => {
  it("lowers the calling thread only, never the process", async () => {
    const processBefore = getPriority();
    const threadBefore = nicenessOf(readFileSync("/proc/thread-self/stat", "utf8"));
    const reply = await niceAfterLowering();
    expect(reply.lowered).toBe(true);
    expect(reply.after).toBe(Math.max(BULK_NICENESS, reply.before));
    expect(getPriority()).toBe(processBefore);
    expect(nicenessOf(readFileSync("/proc/thread-self/stat", "utf8"))).toBe(threadBefore);
  });
});
