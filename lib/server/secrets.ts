import "server-only";
import { serverEnv } from "./env";

/** Every configured secret, for redaction. Never rendered anywhere. */
export function serverSecrets(): string[] {
  try {
    const env = serverEnv();
    return [env.upstream?.apiKey, env.accessCode, ...env.studioKeys.map((item) => item.key)].filter(
      (value): value is string => typeof value === "string",
    );
  } catch {
    return [process.env.GEMINI_API_KEY, process.env.GOOGLE_API_KEY].filter((value): value is string => !!value);
  }
}
