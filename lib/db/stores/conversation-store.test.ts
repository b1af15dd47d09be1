import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConversationSettings, StoredMessage } from "@/lib/studio/conversation-schema";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";
import { UnknownMessageError, type ConversationStore } from "./conversation-store";

const settings: ConversationSettings = {
  model: "models/gemini-2.5-flash",
  systemInstruction: "",
  generationConfig: { temperature: 0.5 },
  safetySettings: [],
};

function message(
  id: string,
  role: "user" | "model",
  text: string,
  extra: Partial<StoredMessage> = {},
): StoredMessage {
  return { id, role, content: { role, parts: [{ text }] }, ...extra };
}

describe.each(testDatabaseKinds())("conversations ($dialect)", (kind) => {
  let data: TestDatabase;
  let store: ConversationStore;

  beforeEach(async () => {
    data = await kind.open();
    store = data.stores.conversations;
  });

  afterEach(async () => {
    await data.cleanup();
  });

  it("creates, lists newest first, searches titles and keeps owners apart", async () => {
    const first = await store.create("studio", { title: "Recipes for soup", settings }, 1000);
    await store.create("studio", { title: "Trip to 100% Lisbon", settings }, 2000);
    await store.create("key:alice", { title: "Alice soup", settings }, 3000);
    expect((await store.list("studio")).map((item) => item.title)).toEqual([
      "Trip to 100% Lisbon",
      "Recipes for soup",
    ]);
    expect((await store.list("studio", "SOUP")).map((item) => item.id)).toEqual([first.id]);
    expect((await store.list("studio", "100%")).map((item) => item.title)).toEqual([
      "Trip to 100% Lisbon",
    ]);
    expect(await store.list("studio", "_")).toEqual([]);
    expect(await store.get("key:alice", first.id)).toBeNull();
    expect((await store.get("studio", first.id))?.settings.generationConfig.temperature).toBe(0.5);
  });

  it("renames, replaces settings and deletes with the messages", async () => {
    const conversation = await store.create("studio", { title: "a", settings }, 1000);
    await store.saveMessages(
      "studio",
      conversation.id,
      { messages: [message("m1", "user", "hi")] },
      2000,
    );
    const renamed = await store.update(
      "studio",
      conversation.id,
      { title: "b", settings: { ...settings, systemInstruction: "be brief" } },
      5000,
    );
    expect(renamed?.title).toBe("b");
    expect(renamed?.settings.systemInstruction).toBe("be brief");
    expect(renamed?.updatedAt).toBe(new Date(5000).toISOString());
    expect(await store.update("key:alice", conversation.id, { title: "x" })).toBeNull();
    expect(await store.delete("key:alice", conversation.id)).toBe(false);
    expect(await store.delete("studio", conversation.id)).toBe(true);
    expect(await data.database.get("SELECT COUNT(*) AS n FROM conversation_messages")).toEqual({
      n: 0,
    });
  });

  it("appends, replaces in place and truncates after a message", async () => {
    const { id } = await store.create("studio", { title: "t", settings });
    await store.saveMessages("studio", id, {
      messages: [
        message("u1", "user", "one"),
        message("m1", "model", "answer one", { stopped: true }),
      ],
    });
    await store.saveMessages("studio", id, {
      messages: [message("u2", "user", "two"), message("m2", "model", "answer two")],
    });
    const ids = async () => (await store.get("studio", id))?.messages.map((item) => item.id);
    expect(await ids()).toEqual(["u1", "m1", "u2", "m2"]);
    expect((await store.get("studio", id))?.messages[1]?.stopped).toBe(true);

    // Regenerate the last answer: keep through u2, add a new answer; the answer is what was saved.
    const saved = await store.saveMessages("studio", id, {
      after: "u2",
      messages: [message("m3", "model", "another answer")],
    });
    expect(saved?.map((item) => [item.id, typeof item.createdAt])).toEqual([["m3", "string"]]);
    expect(await ids()).toEqual(["u1", "m1", "u2", "m3"]);

    // Edit the first prompt: keep nothing, then replace.
    await store.saveMessages("studio", id, {
      after: null,
      messages: [message("u4", "user", "edited")],
    });
    expect(await ids()).toEqual(["u4"]);

    // Replace in place (choosing a candidate) keeps the order.
    await store.saveMessages("studio", id, { messages: [message("m5", "model", "x")] });
    await store.saveMessages("studio", id, { messages: [message("u4", "user", "edited again")] });
    expect(
      (await store.get("studio", id))?.messages.map((item) => item.content.parts[0]?.text),
    ).toEqual(["edited again", "x"]);

    await expect(store.saveMessages("studio", id, { after: "nope", messages: [] })).rejects.toThrow(
      UnknownMessageError,
    );
    expect(await store.saveMessages("key:alice", id, { messages: [] })).toBeNull();
  });

  it("keeps every message when two writers append to one conversation at once", async () => {
    const { id } = await store.create("studio", { title: "t", settings });
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        store.saveMessages("studio", id, { messages: [message(`m${index}`, "user", `${index}`)] }),
      ),
    );
    const stored = (await store.get("studio", id))!.messages.map((item) => item.id);
    expect(stored.sort()).toEqual(Array.from({ length: 20 }, (_, index) => `m${index}`).sort());
  });

  it("reads messages one at a time in order, and every write moves updated_at forward", async () => {
    const { id } = await store.create("studio", { title: "t", settings }, 1000);
    await store.saveMessages(
      "studio",
      id,
      {
        messages: [
          message("u1", "user", "one"),
          message("m1", "model", "two"),
          message("u2", "user", "three"),
        ],
      },
      1000,
    );
    const read: string[] = [];
    for (
      let next = await store.messageAfter(id, -1);
      next;
      next = await store.messageAfter(id, next.position)
    )
      read.push(next.message.content.parts[0]?.text ?? "");
    expect(read).toEqual(["one", "two", "three"]);
    expect(await store.messageAfter("no-such-conversation", -1)).toBeNull();

    // Writes within one millisecond still change the revision a streamed read compares.
    const before = await store.updatedAt("studio", id);
    await store.update("studio", id, { title: "renamed" }, 1000);
    const renamed = await store.updatedAt("studio", id);
    await store.saveMessages("studio", id, { messages: [message("m2", "model", "four")] }, 1000);
    expect(new Set([before, renamed, await store.updatedAt("studio", id)]).size).toBe(3);
    expect(await store.updatedAt("key:alice", id)).toBeNull();
  });

  it("round-trips the whole wire content, candidates, usage and error state", async () => {
    const { id } = await store.create("studio", { title: "t", settings });
    const answer = message("m1", "model", "partial", {
      candidates: [
        {
          index: 0,
          content: { role: "model", parts: [{ text: "partial" }] },
          finishReason: "SAFETY",
          safetyRatings: [
            { category: "HARM_CATEGORY_HARASSMENT", probability: "HIGH", blocked: true },
          ],
        },
      ],
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, totalTokenCount: 6 },
      settings,
      error: { code: 503, message: "overloaded", status: "UNAVAILABLE" },
    });
    await store.saveMessages("studio", id, { messages: [answer] });
    const stored = (await store.get("studio", id))!.messages[0]!;
    expect(stored.candidates?.[0]?.safetyRatings?.[0]?.blocked).toBe(true);
    expect(stored.usageMetadata?.totalTokenCount).toBe(6);
    expect(stored.error?.status).toBe("UNAVAILABLE");
    expect(stored.settings?.model).toBe("models/gemini-2.5-flash");
    expect(typeof stored.createdAt).toBe("string");
  });
});
