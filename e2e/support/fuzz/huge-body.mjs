/**
 * Sends a huge request body (JSON-looking filler) as fast as the server takes it and samples
 * the server process's resident memory meanwhile: how much of an oversized body a server
 * reads and holds before it refuses. Shared by the security spec and bench/hardening.mjs.
 */
import http from "node:http";
import { residentBytes } from "./own-server.mjs";

/**
 * @param {{ baseUrl: string, serverPid: () => number }} server
 * @param {string} route path and query
 * @param {Record<string, string>} headers
 * @param {number} total bytes to offer
 * @param {boolean} declareLength send Content-Length (else chunked)
 */
export async function sendHugeBody(server, route, headers, total, declareLength) {
  const pid = server.serverPid();
  const baseline = residentBytes(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 20);
  const started = performance.now();
  let sent = 0;
  const outcome = await new Promise((resolve) => {
    const request = http.request(`${server.baseUrl}${route}`, {
      method: "POST",
      headers: { ...headers, ...(declareLength ? { "content-length": String(total) } : {}) },
    });
    let answered = false;
    request.on("response", (response) => {
      answered = true;
      let text = "";
      response.on("data", (chunk) => (text += chunk.toString()));
      response.on("end", () => {
        resolve({ status: response.statusCode ?? 0, text });
        request.destroy();
      });
    });
    request.on("error", (error) => resolve({ error: error.message }));
    const piece = Buffer.alloc(1024 * 1024, 0x61);
    const pump = () => {
      while (!answered && sent < total) {
        const ok = request.write(piece);
        sent += piece.length;
        if (!ok) return void request.once("drain", pump);
      }
      if (!answered) request.end();
    };
    request.write('{"contents":[{"parts":[{"text":"');
    pump();
  });
  clearInterval(sampler);
  peak = Math.max(peak, residentBytes(pid));
  return {
    outcome,
    sentBytes: sent,
    growthBytes: peak - baseline,
    ms: Math.round(performance.now() - started),
  };
}
