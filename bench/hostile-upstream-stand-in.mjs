// The stand-in upstream of bench/hostile-upstream.mjs, on a worker thread of its own so that
// writing a hostile answer of megabytes never delays the bench's light requests: a call of the
// model `hostile` gets the answer last posted here, any other call `{"totalTokens":3}`.
import http from "node:http";
import { parentPort } from "node:worker_threads";

let nextAnswer = ["application/json", Buffer.from("{}")];
parentPort.on("message", ({ contentType, text }) => {
  nextAnswer = [contentType, Buffer.from(text)];
  parentPort.postMessage({ ready: true });
});

const LIGHT = Buffer.from('{"totalTokens":3}');
const server = http.createServer((incoming, outgoing) => {
  incoming.resume();
  incoming.on("end", () => {
    const hostile = incoming.url.includes("/models/hostile:");
    const [type, bytes] = hostile ? nextAnswer : ["application/json", LIGHT];
    outgoing.writeHead(200, { "content-type": type });
    // In pieces of 64 KiB, as a network would hand them over.
    let at = 0;
    const more = () => {
      while (at < bytes.length) {
        const piece = bytes.subarray(at, at + 65_536);
        at += piece.length;
        if (!outgoing.write(piece)) return void outgoing.once("drain", more);
      }
      outgoing.end();
    };
    more();
  });
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage({ port: server.address().port }));
