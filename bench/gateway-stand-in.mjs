#!/usr/bin/env node
// The stand-in upstream of bench/gateway.mjs, in a process of its own: answers that cost it
// next to nothing, so what is measured is the proxy in front of it. On a plain HTTP port, and
// on an HTTPS port that speaks HTTP/2 or HTTP/1.1 (ALPN) with the certificate it is given.
//   countTokens              {"totalTokens": 9}
//   generateContent          a short answer
//   streamGenerateContent    model `hold-fast`: 100 events 50 ms apart, then the end, each
//                            carrying the time it was written (`@<epoch ms>`); any other model:
//                            one event every 2 s (or <hold-every-ms>) for as long as the
//                            client stays
// Usage: node bench/gateway-stand-in.mjs <key.pem> <cert.pem> [hold-every-ms]; says
//   { listening, tlsPort }.
import { readFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";

const [keyFile, certFile, holdEvery = "2000"] = process.argv.slice(2);
const HOLD_EVERY_MS = Number(holdEvery);
const COUNT = Buffer.from('{\n  "totalTokens": 9\n}\n');
const ANSWER = Buffer.from(
  JSON.stringify({
    candidates: [
      {
        content: { role: "model", parts: [{ text: "A short answer from the stand-in." }] },
        finishReason: "STOP",
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 7, totalTokenCount: 16 },
    modelVersion: "stand-in",
  }),
);
let open = 0;

function json(outgoing, bytes) {
  outgoing.writeHead(200, { "content-type": "application/json; charset=UTF-8" });
  outgoing.end(bytes);
}

function stream(incoming, outgoing) {
  outgoing.writeHead(200, { "content-type": "text/event-stream" });
  const fast = incoming.url.includes("/models/hold-fast:");
  let index = 0;
  open++;
  const send = () => {
    const last = fast && index === 99;
    const chunk = {
      candidates: [
        {
          content: {
            role: "model",
            parts: [{ text: `tick ${index++} @${performance.timeOrigin + performance.now()}` }],
          },
          index: 0,
          ...(last ? { finishReason: "STOP" } : {}),
        },
      ],
      modelVersion: "stand-in",
    };
    outgoing.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    if (last) {
      clearInterval(timer);
      outgoing.end();
    }
  };
  const timer = setInterval(send, fast ? 50 : HOLD_EVERY_MS);
  send();
  outgoing.on("close", () => {
    clearInterval(timer);
    open--;
  });
}

function serve(incoming, outgoing) {
  incoming.resume();
  incoming.on("end", () => {
    const url = incoming.url;
    if (url.includes(":countTokens")) json(outgoing, COUNT);
    else if (url.includes(":generateContent")) json(outgoing, ANSWER);
    else if (url.includes(":streamGenerateContent")) stream(incoming, outgoing);
    else {
      outgoing.writeHead(404, { "content-type": "application/json" });
      outgoing.end('{"error":{"code":404,"message":"not here","status":"NOT_FOUND"}}');
    }
  });
}

const plain = http.createServer(serve);
plain.keepAliveTimeout = 60_000;
const secure = http2.createSecureServer(
  {
    key: readFileSync(keyFile),
    cert: readFileSync(certFile),
    allowHTTP1: true,
    settings: { maxConcurrentStreams: 1000 },
  },
  serve,
);
await new Promise((resolve) => plain.listen(0, "127.0.0.1", resolve));
await new Promise((resolve) => secure.listen(0, "127.0.0.1", resolve));
process.on("message", (message) => {
  if (message === "open") process.send({ open });
});
process.send({ listening: plain.address().port, tlsPort: secure.address().port });
