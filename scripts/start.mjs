#!/usr/bin/env node
// Starts the built studio on HOSTNAME:PORT (default 127.0.0.1:3000). The configuration
// itself (including the refusal to run as an open relay) is checked by the server at start.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

const hostname = process.env.HOSTNAME || "127.0.0.1";
const port = process.env.PORT || "3000";
if (!existsSync(".next/BUILD_ID")) {
  console.error("[genstudio] No production build found: run `npm run build` first (or `npm run studio`).");
  process.exit(1);
}
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const child = spawn(process.execPath, [nextBin, "start", "-H", hostname, "-p", port], {
  stdio: "inherit",
  env: { ...process.env, HOSTNAME: hostname, PORT: port },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
