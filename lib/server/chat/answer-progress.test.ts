import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import { accumulateResponse, EMPTY_RESPONSE } from "@/lib/studio/accumulate-response";
import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";
import { writeAnswerProgress } from "./answer-progress";
import type { TurnJob } from "./turn-job";

const settings: ConversationSettings = {
  model: "models/gemini-2.5-flash",
  systemInstruction: "",
  generationConfig: {},
  safetySettings: [],
};

const chunk = (text: string): GenerateContentResponse => ({
  candidates: [{ index: 0, content: { role: "model", parts: [{ text }] } }],
});

describe.each(testDatabaseKinds())("answer progress ($dialect)", (kind) => {
  let data: TestDatabase;

  beforeEach(async () => {
    data = await kind.open();
  });

  afterEach(async () => {
    await data.cleanup();
  });

  it("moves the lease on with every write, even when the clock has not moved", async () => {
    const conversations = data.stores.conversations;
    const begun = await conversations.beginTurn(
      "studio",
      "conversation-1",
      {
        parentId: null,
        prompt: { id: "p1", role: "user", content: { role: "user", parts: [{ text: "hi" }] } },
        answer: { id: "a1", role: "model", content: { role: "model", parts: [] }, settings },
        leaseUntil: 1_000_000,
        create: { settings },
      },
      1000,
    );
    const job: TurnJob = {
      ownerId: "studio",
      conversationId: "conversation-1",
      answer: begun!.answer,
      response: EMPTY_RESPONSE,
      listeners: new Set(),
      controller: new AbortController(),
      finished: null,
    };
    // A frozen clock: a follower that saw one lease must still see that the next write is new.
    const progress = writeAnswerProgress(job, {
      conversations,
      now: () => 1000,
      flushIntervalMs: 5,
      followedFlushMs: 5,
      progressCharacters: 1,
      quietMs: 1_000_000,
      leaseMs: 1_000_000,
    });
    const leases: (number | null)[] = [];
    try {
      for (const text of ["one", " two", " three"]) {
        const added = chunk(text);
        job.response = accumulateResponse(job.response, added);
        progress.added(added);
        const written = leases.at(-1);
        await expect
          .poll(async () => (await conversations.answerLease("studio", "conversation-1", "a1"))!)
          .not.toEqual({ generatingUntil: written ?? 1_000_000 });
        leases.push(
          (await conversations.answerLease("studio", "conversation-1", "a1"))!.generatingUntil,
        );
      }
    } finally {
      progress.stop();
      await progress.settled();
    }
    expect(new Set(leases).size).toBe(3);
    const stored = await conversations.readMessage("studio", "conversation-1", "a1", 1000);
    expect(stored?.content.parts).toEqual([{ text: "one two three" }]);
  });
});
