import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalBackend, type LocalBackend } from "@/lib/engine/local-backend";
import type { OriginOperationContext } from "@/lib/gemini/backend/contract";
import type { GenerateContentResponse, UsageMetadata } from "@/lib/gemini/types";
import { readCountTokensRequest, readGenerateContentRequest } from "@/lib/gemini/validate";
import { testDatabaseKinds } from "@/lib/testing/databases";
import type { TempData } from "@/lib/testing/engine-files";

function as(ownerId: string): OriginOperationContext {
  return { caller: { ownerId }, signal: new AbortController().signal, origin: "http://studio" };
}

const alice = as("key:alice");
const bob = as("key:bob");

/** A long shared document (well over several 256-token blocks), then a question. */
const DOCUMENT = Array.from(
  { length: 120 },
  (_, index) => `Paragraph ${index}: rivers carve valleys, deltas spread silt, and tides return.`,
).join("\n");

function body(question: string, extra: object = {}): unknown {
  return {
    systemInstruction: { parts: [{ text: "Answer from the document only." }] },
    contents: [
      { role: "user", parts: [{ text: DOCUMENT }] },
      { role: "model", parts: [{ text: "I have read it." }] },
      { role: "user", parts: [{ text: question }] },
    ],
    ...extra,
  };
}

describe.each(testDatabaseKinds())("implicit caching on the local engine ($dialect)", (kind) => {
  let data: TempData;
  let backend: LocalBackend;
  let clock = Date.parse("2026-03-01T12:00:00Z");

  beforeAll(async () => {
    data = await kind.open();
    backend = createLocalBackend({
      stores: data.stores,
      dataDir: data.dataDir,
      sweepIntervalMs: 0,
      now: () => clock,
    });
  });

  afterAll(async () => {
    await backend.close();
    await data.cleanup();
  });

  async function usage(
    model: string,
    raw: unknown,
    context: OriginOperationContext,
  ): Promise<UsageMetadata> {
    const request = readGenerateContentRequest(raw);
    const answer = (await backend.generateContent(
      model,
      request,
      context,
    )) as GenerateContentResponse;
    return answer.usageMetadata!;
  }

  it("reports the shared prefix of the caller's earlier prompt in whole 256-token blocks", async () => {
    const first = await usage("gemini-2.5-flash", body("Which rivers?"), alice);
    expect(first.cachedContentTokenCount).toBeUndefined();
    expect(first.cacheTokensDetails).toBeUndefined();
    const second = await usage("gemini-2.5-flash", body("And what of the tides?"), alice);
    const cached = second.cachedContentTokenCount!;
    expect(cached % 256).toBe(0);
    // Everything before the last question is shared: all of its whole blocks are cached.
    const shared = second.promptTokenCount! - 12;
    expect(cached).toBeGreaterThan(shared - 256);
    expect(cached).toBeLessThanOrEqual(second.promptTokenCount!);
    expect(second.cacheTokensDetails).toEqual([{ modality: "TEXT", tokenCount: cached }]);
    // promptTokenCount includes the cached tokens, as the service reports it.
    expect(second.promptTokenCount).toBeGreaterThan(cached);
  });

  it("remembers a part spanning many blocks, whose blocks share one fingerprint", async () => {
    // One text part of several thousand tokens: every block inside it ends at the same unit
    // boundary, so its fingerprints repeat within one write (PostgreSQL refused such a write).
    const long = { contents: [{ role: "user", parts: [{ text: DOCUMENT.repeat(4) }] }] };
    expect((await usage("gemini-2.5-flash", long, alice)).cachedContentTokenCount).toBeUndefined();
    expect((await usage("gemini-2.5-flash", long, alice)).cachedContentTokenCount).toBeGreaterThan(
      0,
    );
  });

  it("shares a prefix between conversations whose calls differ only in ids and 2.5 signatures", async () => {
    const agentRun = (id: string, signature: string) => ({
      contents: [
        { role: "user", parts: [{ text: "What is the weather in Paris?" }] },
        {
          role: "model",
          parts: [
            {
              functionCall: { id, name: "get_weather", args: { city: "Paris" } },
              thoughtSignature: signature,
            },
          ],
        },
        {
          role: "user",
          parts: [{ functionResponse: { id, name: "get_weather", response: { report: "sunny" } } }],
        },
        { role: "user", parts: [{ text: DOCUMENT }] },
      ],
    });
    const first = await usage("gemini-2.5-flash", agentRun("run_1", "c2lnbmF0dXJlIG9uZQ=="), alice);
    expect(first.cachedContentTokenCount).toBeUndefined();
    const second = await usage(
      "gemini-2.5-flash",
      agentRun("run_2", "c2lnbmF0dXJlIHR3bw=="),
      alice,
    );
    // The call comes within the first 60 tokens: a hit of whole blocks means it matched.
    expect(second.cachedContentTokenCount).toBe(Math.floor(second.promptTokenCount! / 256) * 256);
  });

  it("never answers one owner's prompt from another owner's prefixes", async () => {
    const bobs = await usage("gemini-2.5-flash", body("Which rivers?"), bob);
    expect(bobs.cachedContentTokenCount).toBeUndefined();
  });

  it("keeps prefixes per model, below a family's minimum caches nothing, and expires them", async () => {
    expect(
      (await usage("gemini-2.5-pro", body("Which rivers?"), alice)).cachedContentTokenCount,
    ).toBeUndefined();
    // 3.x Flash caches from 4,096 tokens: this prompt (about 2,500) never is.
    await usage("gemini-3-flash-preview", body("Which rivers?"), alice);
    const again = await usage("gemini-3-flash-preview", body("Which rivers?"), alice);
    expect(again.cachedContentTokenCount).toBeUndefined();
    clock += 10 * 60 * 1000;
    const later = await usage("gemini-2.5-flash", body("Which rivers?"), alice);
    expect(later.cachedContentTokenCount).toBeUndefined();
  });

  it("reports nothing of the kind in countTokens", async () => {
    await usage("gemini-2.5-flash", body("Which rivers?"), alice);
    const counted = await backend.countTokens(
      "gemini-2.5-flash",
      readCountTokensRequest({
        contents: (body("Which rivers?") as { contents: unknown }).contents,
      }),
      alice,
    );
    expect(counted).not.toHaveProperty("cachedContentTokenCount");
    expect(counted).not.toHaveProperty("cacheTokensDetails");
  });

  it("shares a prefix across instances of one database", async () => {
    const other = await data.reopen({ now: () => clock });
    const second = createLocalBackend({
      stores: other.stores,
      dataDir: data.dataDir,
      sweepIntervalMs: 0,
      now: () => clock,
    });
    try {
      await usage("gemini-2.5-flash", body("Tell me of deltas."), alice);
      const request = readGenerateContentRequest(body("Tell me of deltas, again."));
      const answer = (await second.generateContent(
        "gemini-2.5-flash",
        request,
        alice,
      )) as GenerateContentResponse;
      expect(answer.usageMetadata!.cachedContentTokenCount).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });
});
