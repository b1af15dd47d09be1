#!/usr/bin/env node
// Starts the built studio on HOSTNAME:PORT (default 127.0.0.1:3000). The configuration
// itself (including the refusal to run as an open relay) is checked by the server at start.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const hostname = process.env.HOSTNAME || "127.0.0.1";
const port = process.env.PORT || "3000";
if (!existsSync(".next/BUILD_ID")) {
  console.error(
    "[genstudio] No production build found: run `npm run build` first (or `npm run studio`).",
  );
  process.exit(1);
}
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
// Timeouts for slow clients and error bodies for requests Next cannot route (see the file).
const guard = fileURLToPath(new URL("./connection-guard.cjs", import.meta.url));
// Node flags given to this script (`node --max-old-space-size=4096 scripts/start.mjs`, or a
// bench's `--cpu-prof`) apply to the server itself.
const child = spawn(
  process.execPath,
  [...process.execArgv, "--require", guard, nextBin, "start", "-H", hostname, "-p", port],
  {
    stdio: "inherit",
    env: { ...process.env, HOSTNAME: hostname, PORT: port },
  },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
