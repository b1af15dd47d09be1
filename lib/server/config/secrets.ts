import "server-only";
import { serverEnv } from "./env";
import { observabilityEnv } from "./observability-env";

/** Every configured secret, for redaction. Never rendered anywhere. */
export function serverSecrets(): string[] {
  try {
    const env = serverEnv();
    // The development key is published in the README; only configured keys are secrets.
    const studioKeys = env.developmentDefaults ? [] : env.studioKeys.map((item) => item.key);
    const metricsToken = observabilityEnv().metricsToken;
    return [env.upstream?.apiKey, env.accessCode, metricsToken, ...studioKeys].filter(
      (value): value is string => typeof value === "string",
    );
  } catch {
    return [process.env.GEMINI_API_KEY, process.env.GOOGLE_API_KEY].filter(
      (value): value is string => !!value,
    );
  }
}
