/**
 * A real OpenID Connect provider for the specs: panva's `oidc-provider` (certified, the
 * library many identity servers are built on), in this process on a free port of 127.0.0.1,
 * with one confidential client. Its development login page signs in whoever types a login:
 * the login is the account's email (`name@domain`), verified. Never a hand-written fake: the
 * studio meets discovery, PKCE, state, nonce and a signed ID token as from any provider.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startTestProvider(redirectUri: string): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "genstudio-e2e";
  const clientSecret = "genstudio-e2e-client-secret-0123456789";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The studio reads who signed in from the ID token.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    async findAccount(_context, id) {
      return {
        accountId: id,
        async claims() {
          return { sub: id, email: id, email_verified: true, name: id.split("@")[0] };
        },
      };
    },
  });
  server.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
