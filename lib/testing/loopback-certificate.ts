/** A self-signed certificate for 127.0.0.1, for a test's own TLS upstream. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface LoopbackCertificate {
  key: string;
  cert: string;
}

/** Made by openssl (a P-256 key, valid a day), read into memory; the files are removed. */
export function loopbackCertificate(): LoopbackCertificate {
  const folder = mkdtempSync(path.join(os.tmpdir(), "genstudio-tls-"));
  try {
    const key = path.join(folder, "key.pem");
    const cert = path.join(folder, "cert.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        key,
        "-out",
        cert,
      ],
      { stdio: "ignore" },
    );
    return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
