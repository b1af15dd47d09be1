// Worker thread that reads a PDF's page sizes with pdf-lib, off the request thread: parsing a
// document of tens of megabytes (a real one, or junk that merely starts like one) takes
// seconds of CPU, which the server's main thread must not spend, and a document that makes
// the parser fail badly takes this thread down, not the server. A document comes as a file
// (read here, at most `limit` bytes) or as bytes posted in pieces (copying tens of megabytes
// into one message held the main thread). Plain .mjs: Next does not bundle workers.
import { parentPort } from "node:worker_threads";
import { lowerThisThreadPriority } from "../../runtime/thread-priority.mjs";
import { readHead } from "./read-head.mjs";

if (!parentPort) throw new Error("pdf-worker.mjs must run in a worker thread");
const port = parentPort;
lowerThisThreadPriority();

/** Each page's size in points (its crop box, as a viewer shows it), rotation applied. */
async function pageSizes(bytes) {
  const { PDFDocument } = await import("pdf-lib");
  const document = await PDFDocument.load(bytes, {
    ignoreEncryption: true,
    updateMetadata: false,
    throwOnInvalidObject: false,
  });
  return document.getPages().map((page) => {
    const { width, height } = page.getCropBox();
    const turned = Math.abs(page.getRotation().angle) % 180 === 90;
    return turned ? { width: height, height: width } : { width, height };
  });
}

/** Documents arriving in pieces, by job id: the buffer and how much of it has arrived. */
const arriving = new Map();

function answer(id, work) {
  work.then(
    (sizes) => port.postMessage({ id, pageSizes: sizes }),
    (error) =>
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
}

port.on("message", (message) => {
  switch (message.type) {
    case "file":
      answer(
        message.id,
        readHead(message.path, message.limit).then((bytes) => pageSizes(bytes)),
      );
      return;
    case "begin":
      arriving.set(message.id, { bytes: new Uint8Array(message.size), filled: 0 });
      return;
    case "piece": {
      const document = arriving.get(message.id);
      if (!document) return;
      document.bytes.set(message.bytes, document.filled);
      document.filled += message.bytes.byteLength;
      return;
    }
    case "end": {
      const document = arriving.get(message.id);
      arriving.delete(message.id);
      if (document) answer(message.id, pageSizes(document.bytes.subarray(0, document.filled)));
      return;
    }
    case "cancel":
      arriving.delete(message.id);
      return;
  }
});
