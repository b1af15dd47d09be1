/**
 * People on a server started with STUDIO_ADMIN_EMAIL (peopleServer): the admin signs in,
 * invites someone, the invitation is accepted, the new person makes a key. For the specs that
 * need two people's keys (tenant references).
 */
import type { ServerInfo } from "./servers";
import { PEOPLE_ADMIN } from "./servers";

function headers(server: ServerInfo, cookie?: string): Record<string, string> {
  return {
    origin: server.baseUrl,
    "sec-fetch-site": "same-origin",
    "content-type": "application/json",
    ...(cookie ? { cookie } : {}),
  };
}

async function post(server: ServerInfo, route: string, body: unknown, cookie?: string) {
  const response = await fetch(`${server.baseUrl}${route}`, {
    method: "POST",
    headers: headers(server, cookie),
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return response;
}

function cookieOf(response: Response): string {
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

/** A new person (invited by the admin) and a key of theirs: its secret. */
export async function personWithKey(server: ServerInfo, email: string): Promise<string> {
  const admin = cookieOf(await post(server, "/api/session", PEOPLE_ADMIN));
  const invited = (await (
    await post(server, "/api/admin/invitations", { email }, admin)
  ).json()) as {
    url: string;
  };
  const token = new URL(invited.url).hash.slice(1);
  const person = cookieOf(
    await post(server, "/api/invitations/accept", { token, password: `${email}-password` }),
  );
  const made = (await (await post(server, "/api/keys", { name: "tenant" }, person)).json()) as {
    secret: string;
  };
  return made.secret;
}
