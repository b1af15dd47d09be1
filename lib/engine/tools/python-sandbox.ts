/**
 * Runs Python the local engine wrote (code execution, lib/engine/tools/code-execution.ts) in a
 * child process with hard limits: 2 s of CPU, 256 MiB of address space, no file writes, a 5 s
 * wall clock, an empty environment, a fresh temporary directory, and only `math` and
 * `statistics` importable with a small set of builtins. The code is built from a fixed template
 * and the prompt's numbers, so these limits are a second wall, not the first. Knowingly
 * different from the service: no network namespace (nothing in the template reaches it) and
 * no third-party libraries.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type SandboxOutcome = "OUTCOME_OK" | "OUTCOME_FAILED" | "OUTCOME_DEADLINE_EXCEEDED";

export interface SandboxResult {
  outcome: SandboxOutcome;
  output: string;
  /** False when no Python interpreter could be started: nothing ran. */
  executed: boolean;
}

const WALL_CLOCK_MS = 5000;
const MAX_OUTPUT_CHARACTERS = 16_384;

// Limits first, then the code from stdin, run with a closed set of builtins and modules.
const RUNNER = `
import resource, sys
resource.setrlimit(resource.RLIMIT_CPU, (2, 2))
resource.setrlimit(resource.RLIMIT_AS, (268435456, 268435456))
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
import builtins, math, statistics
code = sys.stdin.read()
allowed_modules = {"math": math, "statistics": statistics}
def guarded_import(name, *args, **kwargs):
    if name in allowed_modules:
        return allowed_modules[name]
    raise ImportError("only math and statistics can be imported here")
names = ["abs", "all", "any", "bool", "dict", "divmod", "enumerate", "float", "int", "len",
         "list", "map", "max", "min", "pow", "print", "range", "repr", "reversed", "round",
         "set", "sorted", "str", "sum", "tuple", "zip", "ArithmeticError", "Exception",
         "OverflowError", "ValueError", "ZeroDivisionError"]
safe = {name: getattr(builtins, name) for name in names}
safe["__import__"] = guarded_import
try:
    exec(compile(code, "<code>", "exec"), {"__builtins__": safe, "__name__": "__main__"})
except BaseException as error:
    sys.stdout.flush()
    sys.stderr.write(type(error).__name__ + ": " + str(error) + "\\n")
    sys.exit(1)
`;

/** The interpreter to run (`python3` on PATH unless the engine is told otherwise). */
export interface SandboxOptions {
  python?: string;
  signal?: AbortSignal;
}

/** Runs `code` under the limits above and reports the service's outcome and output. */
export async function runPython(
  code: string,
  options: SandboxOptions = {},
): Promise<SandboxResult> {
  const directory = await fs.promises.mkdtemp(path.join(os.tmpdir(), "genstudio-code-"));
  try {
    return await new Promise<SandboxResult>((resolve) => {
      const child = spawn(options.python ?? "python3", ["-I", "-S", "-c", RUNNER], {
        cwd: directory,
        env: { NODE_ENV: process.env.NODE_ENV, PATH: process.env.PATH ?? "/usr/bin:/bin" },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      let timedOut = false;
      const take = (into: string, chunk: Buffer) =>
        into.length >= MAX_OUTPUT_CHARACTERS
          ? into
          : (into + chunk.toString("utf8")).slice(0, MAX_OUTPUT_CHARACTERS);
      child.stdout.on("data", (chunk: Buffer) => (stdout = take(stdout, chunk)));
      child.stderr.on("data", (chunk: Buffer) => (stderr = take(stderr, chunk)));
      const kill = () => child.kill("SIGKILL");
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, WALL_CLOCK_MS);
      options.signal?.addEventListener("abort", kill, { once: true });
      child.on("error", () => {
        clearTimeout(timer);
        resolve({
          outcome: "OUTCOME_FAILED",
          output: "Not executed: this studio's server has no Python interpreter (python3).",
          executed: false,
        });
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", kill);
        if (timedOut || signal === "SIGXCPU" || signal === "SIGKILL")
          resolve({
            outcome: "OUTCOME_DEADLINE_EXCEEDED",
            output: `${stdout}Execution stopped: it ran out of time.`,
            executed: true,
          });
        else if (code === 0) resolve({ outcome: "OUTCOME_OK", output: stdout, executed: true });
        else resolve({ outcome: "OUTCOME_FAILED", output: `${stdout}${stderr}`, executed: true });
      });
      child.stdin.on("error", () => {});
      child.stdin.end(code);
    });
  } finally {
    await fs.promises.rm(directory, { recursive: true, force: true });
  }
}
