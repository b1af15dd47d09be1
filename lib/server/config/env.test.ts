import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError, parseServerEnv } from "./env";

describe("parseServerEnv", () => {
  it("defaults to the local engine on loopback with the development key", () => {
    const env = parseServerEnv({});
    expect(env.mode).toBe("local");
    expect(env.hostname).toBe("127.0.0.1");
    expect(env.developmentDefaults).toBe(true);
    expect(env.studioKeys).toEqual([{ name: "dev", key: "genstudio-dev-key" }]);
  });

  it("refuses a public interface without credentials", () => {
    expect(() => parseServerEnv({ HOSTNAME: "0.0.0.0" })).toThrow(ConfigurationError);
    expect(() => parseServerEnv({ HOSTNAME: "0.0.0.0" })).toThrow(/Refusing to start/);
  });

  it("accepts a public interface with an access code or keys, and drops the development key", () => {
    const withCode = parseServerEnv({
      HOSTNAME: "0.0.0.0",
      STUDIO_ACCESS_CODE: "a-long-enough-secret",
    });
    expect(withCode.developmentDefaults).toBe(false);
    expect(withCode.studioKeys).toEqual([]);
    const withKeys = parseServerEnv({
      HOSTNAME: "::",
      STUDIO_API_KEYS: "ci:0123456789abcdefXYZ, 0123456789abcdef-second",
    });
    expect(withKeys.studioKeys).toEqual([
      { name: "ci", key: "0123456789abcdefXYZ" },
      { name: "key-2", key: "0123456789abcdef-second" },
    ]);
  });

  it("refuses an access code shorter than 12 characters", () => {
    for (const code of ["x", "short-code1"])
      expect(() => parseServerEnv({ STUDIO_ACCESS_CODE: code })).toThrow(/at least 12 characters/);
    expect(parseServerEnv({ STUDIO_ACCESS_CODE: "twelve-chars" }).accessCode).toBe("twelve-chars");
  });

  it("refuses short studio keys and malformed base URLs", () => {
    expect(() => parseServerEnv({ STUDIO_API_KEYS: "short" })).toThrow(/shorter than 16/);
    expect(() => parseServerEnv({ GEMINI_API_KEY: "k", GEMINI_BASE_URL: "not a url" })).toThrow(
      ConfigurationError,
    );
  });

  it("chooses upstream mode when a key is set and strips trailing slashes from the base URL", () => {
    const env = parseServerEnv({
      GEMINI_API_KEY: "upstream-secret",
      GEMINI_BASE_URL: "http://127.0.0.1:9999/",
    });
    expect(env.mode).toBe("upstream");
    expect(env.upstream).toMatchObject({
      apiKey: "upstream-secret",
      baseUrl: "http://127.0.0.1:9999",
    });
  });
});

describe("gateway and limit settings", () => {
  it("has patient defaults and reads overrides", () => {
    const defaults = parseServerEnv({ GEMINI_API_KEY: "upstream-secret" });
    expect(defaults.upstream).toMatchObject({ connectTimeoutMs: 10_000, maxAttempts: 3 });
    expect(defaults.limits).toEqual({
      requestsPerMinute: 600,
      burst: 120,
      maxStreamsPerKey: 16,
      signInAttemptsPerMinute: 10,
    });
    const tuned = parseServerEnv({
      GEMINI_API_KEY: "upstream-secret",
      UPSTREAM_FIRST_BYTE_TIMEOUT_MS: "1500",
      UPSTREAM_MAX_ATTEMPTS: "1",
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
      STUDIO_MAX_STREAMS_PER_KEY: "2",
    });
    expect(tuned.upstream).toMatchObject({ firstByteTimeoutMs: 1500, maxAttempts: 1 });
    expect(tuned.limits).toMatchObject({ requestsPerMinute: 0, maxStreamsPerKey: 2 });
  });

  it("refuses nonsense", () => {
    expect(() => parseServerEnv({ UPSTREAM_MAX_ATTEMPTS: "0" })).toThrow(/UPSTREAM_MAX_ATTEMPTS/);
    expect(() => parseServerEnv({ UPSTREAM_IDLE_TIMEOUT_MS: "soon" })).toThrow(
      /UPSTREAM_IDLE_TIMEOUT_MS/,
    );
  });

  it("reads a price table file over the default prices, and refuses a broken one", () => {
    expect(parseServerEnv({}).prices.models["gemini-2.5-flash"]?.input).toBe(0.3);
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-prices-"));
    const file = path.join(directory, "prices.json");
    fs.writeFileSync(
      file,
      JSON.stringify({ currency: "EUR", models: { "gemini-2.5-flash": { input: 1, output: 2 } } }),
    );
    const prices = parseServerEnv({ STUDIO_PRICES_FILE: file }).prices;
    expect(prices.currency).toBe("EUR");
    expect(prices.models["gemini-2.5-flash"]).toEqual({ input: 1, output: 2 });
    expect(prices.models["gemini-2.5-pro"]?.input).toBe(1.25);
    fs.writeFileSync(file, JSON.stringify({ currency: "EUR", models: { m: { input: "1" } } }));
    expect(() => parseServerEnv({ STUDIO_PRICES_FILE: file })).toThrow(/models\.m\.input/);
    fs.writeFileSync(file, "{not json");
    expect(() => parseServerEnv({ STUDIO_PRICES_FILE: file })).toThrow(ConfigurationError);
    fs.rmSync(directory, { recursive: true });
  });
});

describe("people and proxies", () => {
  const admin = { STUDIO_ADMIN_EMAIL: "Ada@Example.com", STUDIO_ADMIN_PASSWORD: "a-long-password" };

  it("turns people on with a first admin, and counts it as credentials on a public interface", () => {
    const env = parseServerEnv({ ...admin, HOSTNAME: "0.0.0.0" });
    expect(env.people).toMatchObject({ adminEmail: "ada@example.com", oidc: null });
    expect(env.developmentDefaults).toBe(false);
    expect(env.people!.linkTtlMs).toBe(72 * 3_600_000);
  });

  it("reads a provider, and needs an admin for it", () => {
    const oidc = {
      STUDIO_OIDC_ISSUER: "https://id.example.com",
      STUDIO_OIDC_CLIENT_ID: "studio",
      STUDIO_OIDC_ALLOWED_DOMAINS: "@Example.com, example.org",
    };
    expect(parseServerEnv({ STUDIO_ADMIN_EMAIL: "ada@example.com", ...oidc }).people?.oidc).toEqual(
      {
        issuer: "https://id.example.com",
        clientId: "studio",
        clientSecret: null,
        name: "single sign-on",
        allowedDomains: ["example.com", "example.org"],
      },
    );
    expect(() => parseServerEnv(oidc)).toThrow("STUDIO_ADMIN_EMAIL");
    expect(() => parseServerEnv({ STUDIO_ADMIN_EMAIL: "ada@example.com" })).toThrow(
      "STUDIO_ADMIN_PASSWORD",
    );
  });

  it("refuses people together with the access code, short admin passwords and bad proxies", () => {
    expect(() => parseServerEnv({ ...admin, STUDIO_ACCESS_CODE: "a-long-access-code" })).toThrow(
      "Set one of them",
    );
    expect(() => parseServerEnv({ ...admin, STUDIO_ADMIN_PASSWORD: "short" })).toThrow(
      ConfigurationError,
    );
    expect(() => parseServerEnv({ STUDIO_TRUSTED_PROXIES: "10.0.0.0/8, proxy" })).toThrow(
      'STUDIO_TRUSTED_PROXIES: "proxy"',
    );
    expect(parseServerEnv({ STUDIO_TRUSTED_PROXIES: "10.0.0.0/8" }).trustedProxies).toEqual([
      "10.0.0.0/8",
    ]);
  });
});
