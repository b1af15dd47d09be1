#!/usr/bin/env node
// What Node 20's promise hooks cost a gateway's countTokens (see bench/README.md, "Gateway: the
// lean API path"). Node turns its async hooks on for the whole process (an init hook on every
// promise, before and after hooks on every reaction, a trampoline on every native callback) once
// any AsyncLocalStorage is entered, and Next enters its own on every request it serves. Against
// the stand-in upstream (gateway-stand-in.mjs), this prints:
// - which AsyncLocalStorage instances are entered while API requests are served, and from where;
// - the async resources one countTokens makes, by type (a run with a counting hook of its own);
// - countTokens per second at 1, 10 and 50 callers (median of three 3 s runs, alternating) of the
//   gateway as it runs and of the same build with the hooks kept off (promise-hooks-probe.cjs's
//   experiment, where stores no longer follow awaits: an upper bound of the hooks' cost, not a
//   way to serve).
// Usage: node bench/promise-hooks.mjs [--checkout .]
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { countOnce, GATEWAY_KEY, throughput, UPSTREAM_KEY } from "./gateway-operations.mjs";
import {
  load,
  loopbackCertificate,
  startChild,
  startStudio,
  stopStudio,
  temporaryFolder,
  readOptions,
} from "./gateway-support.mjs";

const options = readOptions({ checkout: "." });
const checkout = path.resolve(options.checkout);
const probe = path.join(path.dirname(fileURLToPath(import.meta.url)), "promise-hooks-probe.cjs");
const folder = temporaryFolder("promise-hooks");
const certificate = loopbackCertificate();
const standIn = await startChild("stand-in upstream", "gateway-stand-in.mjs", [
  certificate.key,
  certificate.cert,
]);
const environment = {
  GEMINI_API_KEY: UPSTREAM_KEY,
  GEMINI_BASE_URL: `http://127.0.0.1:${standIn.port}`,
  STUDIO_API_KEYS: `bench:${GATEWAY_KEY}`,
  STUDIO_RATE_LIMIT_PER_MINUTE: "60000000",
  STUDIO_MAX_STREAMS_PER_KEY: "100000",
};
let started = 0;
/** A gateway of the checkout with the probe preloaded; `settings` are the probe's variables. */
async function gateway(settings) {
  const file = path.join(folder, `probe-${++started}.json`);
  const server = await startStudio(
    "gateway",
    { ...environment, GENSTUDIO_HOOKS_PROBE: file, ...settings },
    { folder: checkout, nodeArgs: ["--require", probe] },
  );
  // The Next process is the start script's child.
  const next = Number(
    execFileSync("pgrep", ["-P", String(server.pid)])
      .toString()
      .split("\n")[0],
  );
  const read = async () => {
    process.kill(next, "SIGUSR2");
    await new Promise((resolve) => setTimeout(resolve, 300));
    return JSON.parse(readFileSync(file, "utf8"));
  };
  return { server, read };
}

console.log(`checkout ${checkout}; ${new Date().toISOString()}, load ${load()}`);
const counted = await gateway({ GENSTUDIO_HOOKS_COUNT: "1" });
for (let index = 0; index < 500; index++) await countOnce(counted.server);
const before = await counted.read();
const REQUESTS = 1000;
for (let index = 0; index < REQUESTS; index++) await countOnce(counted.server);
const after = await counted.read();
await stopStudio(counted.server);
console.log("\nAsyncLocalStorage instances entered while serving API requests:");
for (const storage of after.storages)
  console.log(`- ${storage.enabled ? "enabled" : "disabled"}: ${storage.from.join(" < ")}`);
console.log("\n| async resources made per countTokens | count |\n|---|---|");
for (const [type, count] of Object.entries(after.counts)) {
  const each = (count - (before.counts[type] ?? 0)) / REQUESTS;
  if (each >= 0.01) console.log(`| ${type} | ${each.toFixed(2)} |`);
}

const servers = [
  { label: "hooks on (as it runs)", ...(await gateway({})) },
  { label: "hooks kept off (experiment)", ...(await gateway({ GENSTUDIO_HOOKS_OFF: "1" })) },
];
for (const { server } of servers) for (let index = 0; index < 500; index++) await countOnce(server);
const rates = servers.map(() => ({ 1: [], 10: [], 50: [] }));
for (let round = 0; round < 3; round++)
  for (const callers of [1, 10, 50])
    for (const [index, { server }] of servers.entries())
      rates[index][callers].push(await throughput(server, callers, 3, countOnce));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`\n| countTokens per second | ${servers.map((s) => s.label).join(" | ")} | off / on |`);
console.log(`|---|${servers.map(() => "---|").join("")}---|`);
for (const callers of [1, 10, 50]) {
  const [on, off] = rates.map((rate) => median(rate[callers]));
  console.log(
    `| ${callers} callers | ${on.toFixed(0)}/s | ${off.toFixed(0)}/s | ${(off / on).toFixed(2)} |`,
  );
}
console.log(`\n${new Date().toISOString()}, load ${load()}`);
for (const { server } of servers) await stopStudio(server);
standIn.child.kill();
process.exit(0);
