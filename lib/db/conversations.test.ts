import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConversationSettings, StoredMessage } from "@/lib/studio/conversation-schema";
import {
  conversationUpdatedAt,
  createConversation,
  deleteConversation,
  getConversation,
  listConversations,
  messageAfter,
  saveMessages,
  UnknownMessageError,
  updateConversation,
} from "./conversations";
import { openDatabase, type Db } from "./database";

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

let directory: string;
let db: Db;

beforeEach(() => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-conversations-"));
  db = openDatabase(directory);
});

afterEach(() => {
  db.close();
  fs.rmSync(directory, { recursive: true, force: true });
});

describe("conversations", () => {
  it("creates, lists newest first, searches titles and keeps owners apart", () => {
    const first = createConversation(db, "studio", { title: "Recipes for soup", settings }, 1000);
    createConversation(db, "studio", { title: "Trip to 100% Lisbon", settings }, 2000);
    createConversation(db, "key:alice", { title: "Alice soup", settings }, 3000);
    expect(listConversations(db, "studio").map((item) => item.title)).toEqual([
      "Trip to 100% Lisbon",
      "Recipes for soup",
    ]);
    expect(listConversations(db, "studio", "SOUP").map((item) => item.id)).toEqual([first.id]);
    expect(listConversations(db, "studio", "100%").map((item) => item.title)).toEqual([
      "Trip to 100% Lisbon",
    ]);
    expect(listConversations(db, "studio", "_")).toEqual([]);
    expect(getConversation(db, "key:alice", first.id)).toBeNull();
    expect(getConversation(db, "studio", first.id)?.settings.generationConfig.temperature).toBe(
      0.5,
    );
  });

  it("renames, replaces settings and deletes with the messages", () => {
    const conversation = createConversation(db, "studio", { title: "a", settings }, 1000);
    saveMessages(db, "studio", conversation.id, { messages: [message("m1", "user", "hi")] }, 2000);
    const renamed = updateConversation(
      db,
      "studio",
      conversation.id,
      { title: "b", settings: { ...settings, systemInstruction: "be brief" } },
      5000,
    );
    expect(renamed?.title).toBe("b");
    expect(renamed?.settings.systemInstruction).toBe("be brief");
    expect(renamed?.updatedAt).toBe(new Date(5000).toISOString());
    expect(updateConversation(db, "key:alice", conversation.id, { title: "x" })).toBeNull();
    expect(deleteConversation(db, "key:alice", conversation.id)).toBe(false);
    expect(deleteConversation(db, "studio", conversation.id)).toBe(true);
    expect(db.prepare("SELECT COUNT(*) AS n FROM conversation_messages").get()).toEqual({ n: 0 });
  });

  it("appends, replaces in place and truncates after a message", () => {
    const { id } = createConversation(db, "studio", { title: "t", settings });
    saveMessages(db, "studio", id, {
      messages: [
        message("u1", "user", "one"),
        message("m1", "model", "answer one", { stopped: true }),
      ],
    });
    saveMessages(db, "studio", id, {
      messages: [message("u2", "user", "two"), message("m2", "model", "answer two")],
    });
    expect(getConversation(db, "studio", id)?.messages.map((item) => item.id)).toEqual([
      "u1",
      "m1",
      "u2",
      "m2",
    ]);
    expect(getConversation(db, "studio", id)?.messages[1]?.stopped).toBe(true);

    const ids = () => getConversation(db, "studio", id)?.messages.map((item) => item.id);
    // Regenerate the last answer: keep through u2, add a new answer; the answer is what was saved.
    const saved = saveMessages(db, "studio", id, {
      after: "u2",
      messages: [message("m3", "model", "another answer")],
    });
    expect(saved?.map((item) => [item.id, typeof item.createdAt])).toEqual([["m3", "string"]]);
    expect(ids()).toEqual(["u1", "m1", "u2", "m3"]);

    // Edit the first prompt: keep nothing, then replace.
    saveMessages(db, "studio", id, { after: null, messages: [message("u4", "user", "edited")] });
    expect(ids()).toEqual(["u4"]);

    // Replace in place (choosing a candidate) keeps the order.
    saveMessages(db, "studio", id, { messages: [message("m5", "model", "x")] });
    saveMessages(db, "studio", id, { messages: [message("u4", "user", "edited again")] });
    expect(
      getConversation(db, "studio", id)?.messages.map((item) => item.content.parts[0]?.text),
    ).toEqual(["edited again", "x"]);

    expect(() => saveMessages(db, "studio", id, { after: "nope", messages: [] })).toThrow(
      UnknownMessageError,
    );
    expect(saveMessages(db, "key:alice", id, { messages: [] })).toBeNull();
  });

  it("reads messages one at a time in order, and every write moves updated_at forward", () => {
    const { id } = createConversation(db, "studio", { title: "t", settings }, 1000);
    saveMessages(
      db,
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
    for (let next = messageAfter(db, id, -1); next; next = messageAfter(db, id, next.position))
      read.push(next.message.content.parts[0]?.text ?? "");
    expect(read).toEqual(["one", "two", "three"]);
    expect(messageAfter(db, "no-such-conversation", -1)).toBeNull();

    // Writes within one millisecond still change the revision a streamed read compares.
    const before = conversationUpdatedAt(db, "studio", id);
    updateConversation(db, "studio", id, { title: "renamed" }, 1000);
    const renamed = conversationUpdatedAt(db, "studio", id);
    saveMessages(db, "studio", id, { messages: [message("m2", "model", "four")] }, 1000);
    expect(new Set([before, renamed, conversationUpdatedAt(db, "studio", id)]).size).toBe(3);
    expect(conversationUpdatedAt(db, "key:alice", id)).toBeNull();
  });

  it("round-trips the whole wire content, candidates, usage and error state", () => {
    const { id } = createConversation(db, "studio", { title: "t", settings });
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
    saveMessages(db, "studio", id, { messages: [answer] });
    const stored = getConversation(db, "studio", id)!.messages[0]!;
    expect(stored.candidates?.[0]?.safetyRatings?.[0]?.blocked).toBe(true);
    expect(stored.usageMetadata?.totalTokenCount).toBe(6);
    expect(stored.error?.status).toBe("UNAVAILABLE");
    expect(stored.settings?.model).toBe("models/gemini-2.5-flash");
    expect(typeof stored.createdAt).toBe("string");
  });
});
