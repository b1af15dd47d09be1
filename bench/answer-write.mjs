#!/usr/bin/env node
// What writing a small answer costs inside a server (see bench/README.md, "What `res.end` costs
// in the gateway"): sequential countTokens through the gateway (this build's, and with
// `--compare ../other` another build's, alternating) in front of the stand-in upstream, and the
// same 23-byte JSON answer with the gateway's headers from a bare Node server, twice: answering
// at once, and after walking 8 MiB first (a request path's worth of memory traffic, which leaves
// the caches cold). answer-write-probe.cjs times each answer's writing inside each server
// (`writeHead` when called first, and `res.end()`): the headers' making, the native socket write (the system call), the rest (Node's JavaScript), and
// whether the process lost the CPU during the call (an involuntary context switch: the client
// the write woke ran first). Medians over all calls and over the calls not interrupted.
// Usage: node bench/answer-write.mjs [--samples 1000] [--compare ../other-checkout]
import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { countOnce, GATEWAY_KEY, UPSTREAM_KEY } from "./gateway-operations.mjs";
import {
  benchDir,
  load,
  loopbackCertificate,
  startChild,
  startStudio,
  stopStudio,
  temporaryFolder,
  readOptions,
} from "./gateway-support.mjs";

const probe = path.join(benchDir, "answer-write-probe.cjs");

if (process.argv[2] === "--bare-server") {
  // The bare server: reads the body, then answers as the gateway does (same headers, same bytes).
  const cold = process.argv[3] === "cold";
  const memory = new Float64Array(1 << 20);
  let sink = 0;
  const body = Buffer.from('{\n  "totalTokens": 5\n}\n');
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (cold) for (let index = 0; index < memory.length; index += 8) sink += memory[index]++;
      response.writeHead(200, [
        "cache-control",
        "private, no-store",
        "content-type",
        "application/json; charset=UTF-8",
        "server-timing",
        "upstream;dur=1",
        "vary",
        "Origin, X-Origin, Referer",
        "x-content-type-options",
        "nosniff",
        "content-length",
        body.byteLength,
      ]);
      response.end(body);
    });
  });
  server.listen(0, "127.0.0.1", () => process.send({ listening: server.address().port, sink }));
} else {
  const options = readOptions({ samples: 1000, compare: "" });
  const folder = temporaryFolder("answer-write");
  const probeFile = (name) => path.join(folder, `${name.replace(/\W+/g, "-")}.txt`);
  const certificate = loopbackCertificate();
  const standIn = await startChild("stand-in upstream", "gateway-stand-in.mjs", [
    certificate.key,
    certificate.cert,
  ]);
  const servers = [];
  const checkouts = [
    path.resolve(benchDir, ".."),
    ...(options.compare ? [path.resolve(options.compare)] : []),
  ];
  for (const checkout of checkouts) {
    const label = `gateway of ${path.relative(process.cwd(), checkout) || "."}`;
    const gateway = await startStudio(
      "gateway",
      {
        GEMINI_API_KEY: UPSTREAM_KEY,
        GEMINI_BASE_URL: `http://127.0.0.1:${standIn.port}`,
        STUDIO_API_KEYS: `bench:${GATEWAY_KEY}`,
        STUDIO_RATE_LIMIT_PER_MINUTE: "60000000",
        GENSTUDIO_ANSWER_WRITE_PROBE: probeFile(label),
      },
      { folder: checkout, nodeOptions: `--require ${probe}` },
    );
    servers.push(Object.assign(gateway, { label }));
  }
  for (const variant of ["hot", "cold"]) {
    const label = `bare Node server, ${variant === "hot" ? "answering at once" : "after an 8 MiB walk"}`;
    const child = fork(fileURLToPath(import.meta.url), ["--bare-server", variant], {
      execArgv: ["--require", probe],
      env: { ...process.env, GENSTUDIO_ANSWER_WRITE_PROBE: probeFile(label) },
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    const { listening } = await new Promise((resolve) => child.once("message", resolve));
    servers.push({ label, name: label, baseUrl: `http://127.0.0.1:${listening}`, child });
  }
  // Warm-up, then the samples, each round starting one server further on.
  for (let round = 0; round < 300 + options.samples; round++) {
    if (round === 300) await new Promise((resolve) => setTimeout(resolve, 500));
    for (let turn = 0; turn < servers.length; turn++)
      await countOnce(servers[(round + turn) % servers.length]);
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  console.log(
    `\nWriting a countTokens answer inside each server (writeHead, when called first, and res.end()) (${options.samples} sequential calls each, alternating; load ${load()}); median µs:`,
  );
  console.log(
    "| server | written | headers | native write | the rest | interrupted | written, not interrupted | native write, not interrupted |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length ? sorted[sorted.length >> 1].toFixed(1) : "n/a";
  };
  for (const server of servers) {
    if (server.child) server.child.kill();
    else await stopStudio(server);
  }
  for (const server of servers) {
    const rows = readFileSync(probeFile(server.label), "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(" ").map(Number))
      .slice(-options.samples);
    const calm = rows.filter((row) => row[3] === 0);
    console.log(
      `| ${server.label} | ${median(rows.map((r) => r[0]))} | ${median(rows.map((r) => r[1]))} | ${median(rows.map((r) => r[2]))} | ${median(rows.map((r) => r[0] - r[1] - r[2]))} | ${((1 - calm.length / rows.length) * 100).toFixed(0)} % | ${median(calm.map((r) => r[0]))} | ${median(calm.map((r) => r[2]))} |`,
    );
  }
  standIn.child.kill();
  process.exit(0);
}
