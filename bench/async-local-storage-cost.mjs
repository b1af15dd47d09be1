#!/usr/bin/env node
// What AsyncLocalStorage costs a chain of awaits on this Node (see bench/README.md, "Gateway: the
// lean API path"): a chain of 30 awaited async calls, timed with no AsyncLocalStorage in the
// process ("none"), after one was entered once and never again ("enabled": Node 20 then runs its
// promise hooks for every promise of the process), and with a store run around each chain
// ("run", as the gateway's exchange scope does per request). Each mode runs in its own process.
// Usage: node bench/async-local-storage-cost.mjs [--chains 200000]
import { spawnSync } from "node:child_process";
import { AsyncLocalStorage } from "node:async_hooks";
import { fileURLToPath } from "node:url";

const [, , first, second] = process.argv;
const mode = first === "--mode" ? second : null;

async function leaf(value) {
  return value + 1;
}

async function chain(seed) {
  let value = seed;
  for (let index = 0; index < 30; index++) value = await leaf(value);
  return value;
}

if (mode !== null) {
  const chains = Number(process.env.CHAINS ?? 200_000);
  const storage = new AsyncLocalStorage();
  if (mode === "enabled") storage.enterWith({ entered: true });
  const once = (index) =>
    mode === "run" ? storage.run({ index }, () => chain(index)) : chain(index);
  for (let index = 0; index < 40_000; index++) await once(index);
  const started = process.hrtime.bigint();
  for (let index = 0; index < chains; index++) await once(index);
  const micros = Number(process.hrtime.bigint() - started) / 1000 / chains;
  console.log(`| ${mode} | ${micros.toFixed(2)} µs |`);
} else {
  const chains = process.argv[2] === "--chains" ? process.argv[3] : "200000";
  console.log(
    `Node ${process.version}, a chain of 30 awaits, ${chains} chains per mode, three rounds\n`,
  );
  console.log("| AsyncLocalStorage | per chain |\n|---|---|");
  for (let round = 0; round < 3; round++)
    for (const each of ["none", "enabled", "run"]) {
      const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--mode", each], {
        env: { ...process.env, CHAINS: chains },
        encoding: "utf8",
      });
      process.stdout.write(result.stdout);
    }
}
