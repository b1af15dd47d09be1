import "server-only";
import type { OwnershipStore } from "@/lib/db/stores/ownership-store";
import type { OperationContext, OpenAIAnswer, PassedThrough } from "@/lib/gemini/backend/contract";
import { cachedContentNameOfUrl, fileNameOfUri } from "@/lib/gemini/references";
import { ownershipDenied, type OwnedKind } from "../persistence/ownership";
import type { UpstreamClient, UpstreamResponse } from "./upstream-client";
import { API, header } from "./upstream-resources";

/**
 * The OpenAI-compatible endpoint through the gateway: the client's body is forwarded as it was
 * sent (parsed once and written again as JSON: same fields, values and spelling; nothing the
 * gateway does not model is dropped or refused), with the server's key as the bearer token
 * the endpoint takes, and the upstream's answer passed through as it arrives (a stream event
 * by event), scrubbed of the key and the upstream's address. Before anything goes upstream,
 * every string of the body that is a whole resource name or an address of one (`files/…`,
 * `cachedContents/…`, `fileSearchStores/…`, `batches/…`, and URLs naming a file or a cache)
 * must name the caller's own resource: anything else is the service's 403, never forwarded.
 */

const NAME = /^(files|cachedContents|fileSearchStores|batches)\/([A-Za-z0-9][A-Za-z0-9._-]*)$/;
const KINDS: Record<string, OwnedKind> = {
  files: "file",
  cachedContents: "cachedContent",
  fileSearchStores: "fileSearchStore",
  batches: "batch",
};

/** The resource a string names, if it is one whole name or an http(s) address of one. */
function resourceOf(value: string): { kind: OwnedKind; name: string } | null {
  const text = value.trim();
  const named = NAME.exec(text);
  if (named) return { kind: KINDS[named[1]!]!, name: `${named[1]}/${named[2]}` };
  if (!/^https?:\/\//i.test(text)) return null;
  const cache = cachedContentNameOfUrl(text);
  if (cache) return { kind: "cachedContent", name: cache };
  const file = fileNameOfUri(text);
  return file ? { kind: "file", name: file } : null;
}

/** Every resource the body's strings name (walked without recursion). */
export function namedResources(body: unknown): { kind: OwnedKind; name: string }[] {
  const found: { kind: OwnedKind; name: string }[] = [];
  const stack: unknown[] = [body];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === "string") {
      const resource = resourceOf(value);
      if (resource) found.push(resource);
    } else if (typeof value === "object" && value !== null)
      stack.push(...(Array.isArray(value) ? value : Object.values(value)));
  }
  return found;
}

export class UpstreamOpenAI {
  constructor(
    private readonly client: UpstreamClient,
    private readonly ownership: OwnershipStore,
  ) {}

  /** The service's 403 for the first named resource the caller does not own. */
  private async checkNamed(body: unknown, context: OperationContext): Promise<void> {
    const named = namedResources(body);
    const owners = await this.ownership.ownersOf(named);
    for (const { kind, name } of named)
      if (owners.get(`${kind}:${name}`) !== context.caller.ownerId)
        throw ownershipDenied(kind, name);
  }

  private passedThrough(response: UpstreamResponse): { passedThrough: PassedThrough } {
    const contentType = header(response, "content-type");
    return {
      passedThrough: {
        status: response.status,
        ...(contentType ? { contentType } : {}),
        body: this.client.scrubbedStreamOf(response.body),
      },
    };
  }

  async post(path: string, body: unknown, context: OperationContext) {
    await this.checkNamed(body, context);
    // Retried only until the upstream answers: after that, a stream passes on as it comes.
    const response = await this.client.open({
      method: "POST",
      target: `${API}/openai/${path}`,
      json: body,
      bearerKey: true,
      signal: context.signal,
      safety: "idempotent",
    });
    return this.passedThrough(response);
  }

  async get<Value>(path: string, context: OperationContext): Promise<OpenAIAnswer<Value>> {
    const response = await this.client.open({
      method: "GET",
      target: `${API}/openai/${path}`,
      bearerKey: true,
      signal: context.signal,
      safety: "idempotent",
    });
    return this.passedThrough(response);
  }
}
