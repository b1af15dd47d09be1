import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import * as client from "openid-client";
import type { PersonRecord } from "@/lib/db/stores/people-store";
import { ApiError } from "@/lib/gemini/api-error";
import { serverEnv, type OidcSettings } from "../config/env";
import { isLoopbackHost } from "../config/loopback";
import { dataStores } from "../persistence/database-handle";
import { forgetIdentities, keyHashingSecret } from "../auth/identity-cache";
import { studioOrigin } from "./links";

/**
 * Sign-in through an OpenID Connect provider: the authorization code flow with PKCE (S256),
 * `state` and `nonce` checked, the ID token verified by openid-client (signature against the
 * provider's keys, issuer, audience, expiry). The flow's secrets wait in a short-lived,
 * HttpOnly cookie signed with the studio's secret, so the callback may land on any instance.
 * Who may come in: a person already linked to the provider's subject; else a person with the
 * provider's verified email (linked now); else someone with an open invitation for that email;
 * else, when its domain is allowed (STUDIO_OIDC_ALLOWED_DOMAINS), a new member.
 */

export const OIDC_FLOW_COOKIE = "genstudio_oidc";
const CALLBACK_PATH = "/api/session/oidc/callback";
const FLOW_LIFETIME_S = 600;

const configHolder = globalThis as typeof globalThis & {
  genstudioOidcConfig?: { issuer: string; config: Promise<client.Configuration> };
};

/** The provider's configuration, discovered once (again after a failure). */
function providerConfig(settings: OidcSettings): Promise<client.Configuration> {
  if (configHolder.genstudioOidcConfig?.issuer !== settings.issuer) {
    const issuer = new URL(settings.issuer);
    // Plain HTTP only for a provider on this machine (development and the tests).
    const insecure = issuer.protocol === "http:" && isLoopbackHost(issuer.hostname);
    const config = client.discovery(
      issuer,
      settings.clientId,
      settings.clientSecret ?? undefined,
      settings.clientSecret === null
        ? client.None()
        : client.ClientSecretPost(settings.clientSecret),
      insecure ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    config.catch(() => {
      if (configHolder.genstudioOidcConfig?.config === config)
        configHolder.genstudioOidcConfig = undefined;
    });
    configHolder.genstudioOidcConfig = { issuer: settings.issuer, config };
  }
  return configHolder.genstudioOidcConfig.config;
}

function settings(): OidcSettings {
  const oidc = serverEnv().people?.oidc;
  if (!oidc) throw ApiError.notFound("No OpenID Connect provider is configured.");
  return oidc;
}

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
}

async function sign(text: string): Promise<string> {
  return createHmac("sha256", `oidc-flow:${await keyHashingSecret()}`)
    .update(text)
    .digest("base64url");
}

async function flowCookie(flow: Flow, secure: boolean): Promise<string> {
  const value = Buffer.from(JSON.stringify(flow)).toString("base64url");
  return `${OIDC_FLOW_COOKIE}=${value}.${await sign(value)}; Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax; Max-Age=${FLOW_LIFETIME_S}${secure ? "; Secure" : ""}`;
}

export function clearedFlowCookie(): string {
  return `${OIDC_FLOW_COOKIE}=; Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax; Max-Age=0`;
}

async function readFlow(request: Request): Promise<Flow | null> {
  const cookie = (request.headers.get("cookie") ?? "")
    .split(";")
    .map((item) => item.trim())
    .find((item) => item.startsWith(`${OIDC_FLOW_COOKIE}=`));
  const [value, mac] = (cookie?.slice(OIDC_FLOW_COOKIE.length + 1) ?? "").split(".");
  if (!value || !mac) return null;
  const expected = Buffer.from(await sign(value));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as Flow;
}

/** Where the browser goes to sign in at the provider, and the cookie that remembers the flow. */
export async function startProviderSignIn(
  request: Request,
): Promise<{ location: string; cookie: string }> {
  const config = await providerConfig(settings());
  const flow: Flow = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
  };
  const origin = studioOrigin(request);
  const location = client.buildAuthorizationUrl(config, {
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    scope: "openid email profile",
    code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: "S256",
    state: flow.state,
    nonce: flow.nonce,
  });
  return { location: location.href, cookie: await flowCookie(flow, origin.startsWith("https:")) };
}

function refused(message: string): ApiError {
  return ApiError.permissionDenied(message);
}

/** The person the provider's answer signs in (linked or made as this module's header says), or 403. */
export async function finishProviderSignIn(request: Request): Promise<PersonRecord> {
  const oidc = settings();
  const flow = await readFlow(request);
  if (flow === null)
    throw refused("The sign-in through the provider took too long or was not started here.");
  const config = await providerConfig(oidc);
  const current = new URL(request.url);
  const callback = new URL(`${studioOrigin(request)}${CALLBACK_PATH}${current.search}`);
  let claims: client.IDToken | undefined;
  try {
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (error) {
    throw refused(`The provider's answer was refused: ${(error as Error).message.slice(0, 200)}`);
  }
  if (!claims) throw refused("The provider sent no ID token.");
  return personForClaims(oidc, claims);
}

async function personForClaims(oidc: OidcSettings, claims: client.IDToken): Promise<PersonRecord> {
  const { people } = await dataStores();
  const subject = `${claims.iss} ${claims.sub}`;
  const linked = await people.findByOidcSubject(subject);
  if (linked) return enabled(linked);
  const email = typeof claims.email === "string" ? claims.email.toLowerCase() : null;
  if (email === null || claims.email_verified !== true)
    throw refused("The provider did not vouch for an email address (email_verified).");
  const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim() : email;
  const known = await people.findByEmail(email);
  if (known) {
    if (known.oidcSubject !== null)
      throw refused(`${email} is linked to another account of the provider.`);
    await people.linkOidcSubject(known.id, subject);
    return enabled(known);
  }
  const now = Date.now();
  const invited = await people.useInvitationFor(email, now, (link, executor) =>
    people.createInTransaction(
      executor,
      { email, name, role: link.role, passwordHash: null, oidcSubject: subject },
      now,
    ),
  );
  if (invited) return invited;
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (!oidc.allowedDomains.includes(domain))
    throw refused(`${email} has no account here. Ask an admin for an invitation.`);
  const made = await people.create({
    email,
    name,
    role: "member",
    passwordHash: null,
    oidcSubject: subject,
  });
  if (!made) throw refused(`${email} could not be given an account; try again.`);
  forgetIdentities();
  return made;
}

function enabled(person: PersonRecord): PersonRecord {
  if (person.disabledAt !== null) throw refused("This account is disabled. Ask an admin.");
  return person;
}
