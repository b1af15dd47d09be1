import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  SEARCH_MARK_END,
  SEARCH_MARK_START,
  type ConversationSettings,
  type StoredMessage,
} from "@/lib/studio/conversation-schema";
import { currentPath } from "@/lib/studio/conversation-tree";
import { testDatabaseKinds, urlWithSchema, type TestDatabase } from "@/lib/testing/databases";
import { migrate } from "../migrate";
import { MIGRATIONS } from "../migrations";
import { PostgresDatabase } from "../postgres-database";
import type { SqlDatabase } from "../sql-database";
import { SqliteDatabase } from "../sqlite-database";
import { UnknownMessageError } from "./conversation-errors";
import { fullTextQuery } from "./conversation-search";
import {
  UNDO_DELETE_MS,
  type AnswerSignalPayload,
  type ConversationStore,
} from "./conversation-store";

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

  async function shown(id: string, owner = "studio"): Promise<string[]> {
    return currentPath((await store.get(owner, id))!).map((item) => item.id);
  }

  async function texts(id: string): Promise<string[]> {
    return currentPath((await store.get("studio", id))!).map(
      (item) => item.content.parts[0]?.text ?? "",
    );
  }

  async function count(sql: string): Promise<number> {
    return Number((await data.database.get<{ n: number }>(sql))!.n);
  }

  describe("conversations", () => {
    it("creates, lists newest first and keeps owners apart", async () => {
      const first = await store.create("studio", { title: "Recipes for soup", settings }, 1000);
      await store.create("studio", { title: "Trip to 100% Lisbon", settings }, 2000);
      await store.create("key:alice", { title: "Alice soup", settings }, 3000);
      expect((await store.list("studio")).map((item) => item.title)).toEqual([
        "Trip to 100% Lisbon",
        "Recipes for soup",
      ]);
      expect((await store.search("studio", "SOUP")).map((item) => item.id)).toEqual([first.id]);
      expect((await store.search("studio", "100%")).map((item) => item.title)).toEqual([
        "Trip to 100% Lisbon",
      ]);
      expect(await store.search("studio", "_")).toEqual([]);
      expect(await store.get("key:alice", first.id)).toBeNull();
      expect((await store.get("studio", first.id))?.settings.generationConfig.temperature).toBe(
        0.5,
      );
    });

    it("measures an owner's stored bytes (titles, settings, every message; deleted ones until purged)", async () => {
      expect(await store.usedBytes("studio")).toBe(0);
      const first = await store.create("studio", { title: "é", settings }, 1000);
      const head = 2 + JSON.stringify(settings).length;
      expect(await store.usedBytes("studio")).toBe(head);
      const long = "ü".repeat(1000);
      const [saved] = (await store.saveMessages("studio", first.id, {
        messages: [message("m1", "user", long)],
      }))!;
      const stored = await data.database.get<{ message_json: string }>(
        "SELECT message_json FROM conversation_messages WHERE id = ?",
        ["m1"],
      );
      expect(saved!.id).toBe("m1");
      expect(await store.usedBytes("studio")).toBe(
        head + Buffer.byteLength(stored!.message_json, "utf8"),
      );
      await store.create("key:alice", { title: "other", settings });
      expect(await store.usedBytes("studio")).toBeGreaterThan(2000);
      await store.delete("studio", first.id, 5000);
      expect(await store.usedBytes("studio")).toBeGreaterThan(2000);
      await store.purgeDeleted(5000);
      expect(await store.usedBytes("studio")).toBe(0);
    });

    it("creates with the browser's id once: the same create again returns the same conversation", async () => {
      const id = "client-made-id-1";
      const created = await store.create("studio", { id, title: "t", settings }, 1000);
      expect(created.id).toBe(id);
      expect((await store.create("studio", { id, title: "other", settings })).title).toBe("t");
      expect(await store.list("studio")).toHaveLength(1);
      // Another owner's id is no business of this one: the same id is simply its own.
      expect((await store.create("key:alice", { id, title: "alice's", settings })).title).toBe(
        "alice's",
      );
      expect((await store.get("studio", id))!.title).toBe("t");
      // An owner's own deleted conversation holds its id until it is purged.
      await store.delete("studio", id, 2000);
      await expect(store.create("studio", { id, title: "t", settings })).rejects.toThrow(
        /already taken/,
      );
    });

    it("keeps two owners' conversations of one id apart in every read and write", async () => {
      const id = "shared-chat-0001";
      const turn = (text: string) => ({
        parentId: null,
        prompt: message("p1", "user", text),
        answer: message("a1", "model", "", { settings }),
        leaseUntil: 10_000,
        create: { settings },
      });
      const mine = (await store.beginTurn("studio", id, turn("studio asks about herons"), 1000))!;
      const theirs = (await store.beginTurn("key:alice", id, turn("alice asks about owls"), 1000))!;
      expect([mine.created, theirs.created]).toEqual([true, true]);
      expect(theirs.history.map((item) => item.content.parts[0]?.text)).toEqual([
        "alice asks about owls",
      ]);
      expect(theirs.title).toBe("alice asks about owls");

      // The answers' runners write, are followed and stopped each in their own conversation.
      await store.saveAnswerProgress("studio", id, message("a1", "model", "herons wade"), 20_000);
      await store.saveAnswerProgress("key:alice", id, message("a1", "model", "owls hoot"), 6000);
      await store.followAnswer("key:alice", id, "a1", 9000);
      expect(await store.answerRunState("studio", id, "a1")).toEqual({
        stopRequested: false,
        followedUntil: 0,
      });
      expect(await store.requestAnswerStop("key:alice", id, "a1")).toBe(true);
      expect((await store.answerRunState("studio", id, "a1"))!.stopRequested).toBe(false);
      expect((await store.renewAnswerLease("key:alice", id, "a1", 6500))!.stopRequested).toBe(true);
      expect((await store.readMessage("studio", id, "a1"))!.content.parts[0]?.text).toBe(
        "herons wade",
      );
      expect(await store.finishInterruptedAnswers("key:alice", id, 7000)).toBe(1);
      expect((await store.readMessage("studio", id, "a1", 7000))!.streaming).toBe(true);
      await store.finishAnswer("studio", id, message("a1", "model", "herons wade slowly"), 8000);

      // Reads, search and the quota see the owner's own alone.
      const read = async (owner: string) => {
        const texts: string[] = [];
        for (
          let next = await store.messageAfter(owner, id, 0);
          next;
          next = await store.messageAfter(owner, id, next.sequence)
        )
          texts.push(next.message.content.parts[0]?.text ?? "");
        return texts;
      };
      expect(await read("studio")).toEqual(["studio asks about herons", "herons wade slowly"]);
      expect(await read("key:alice")).toEqual(["alice asks about owls", "owls hoot"]);
      expect((await store.search("studio", "owls")).map((item) => item.id)).toEqual([]);
      expect((await store.search("key:alice", "owls")).map((item) => item.id)).toEqual([id]);
      expect((await store.search("key:alice", "herons")).map((item) => item.id)).toEqual([]);
      expect(await store.currentBranch("key:alice", id)).toHaveLength(2);
      const studioBytes = await store.usedBytes("studio");

      // Changing or deleting one leaves the other as it was.
      await store.update("key:alice", id, { title: "renamed by alice" });
      await store.saveMessages("key:alice", id, { messages: [message("u2", "user", "more")] });
      await store.delete("key:alice", id, 9000);
      await store.purgeDeleted(9000);
      expect(await store.get("key:alice", id)).toBeNull();
      const kept = (await store.get("studio", id))!;
      expect(kept.title).toBe("studio asks about herons");
      expect(kept.messages.map((item) => item.id)).toEqual(["p1", "a1"]);
      expect(await store.usedBytes("studio")).toBe(studioBytes);
      expect(await store.usedBytes("key:alice")).toBe(0);
      // The freed id is alice's to use again.
      expect((await store.create("key:alice", { id, title: "again", settings })).messages).toEqual(
        [],
      );
    });

    it("renames, replaces settings, deletes undoably and purges after the window", async () => {
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
      expect(await store.delete("key:alice", conversation.id, 6000)).toBe(false);
      expect(await store.delete("studio", conversation.id, 6000)).toBe(true);
      expect(await store.get("studio", conversation.id)).toBeNull();
      expect(await store.list("studio")).toEqual([]);
      expect(await store.search("studio", "hi")).toEqual([]);
      expect(await store.restore("key:alice", conversation.id, 7000)).toBeNull();
      expect((await store.restore("studio", conversation.id, 7000))?.title).toBe("b");
      expect(await shown(conversation.id)).toEqual(["m1"]);

      expect(await store.delete("studio", conversation.id, 8000)).toBe(true);
      expect(await store.restore("studio", conversation.id, 8000 + UNDO_DELETE_MS)).toBeNull();
      expect(await store.purgeDeleted(8000)).toBe(1);
      expect(await count("SELECT COUNT(*) AS n FROM conversation_messages")).toBe(0);
    });

    it("adds messages after the branch shown, replaces in place, and never drops a message", async () => {
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
      expect(await shown(id)).toEqual(["u1", "m1", "u2", "m2"]);
      expect((await store.get("studio", id))?.messages[1]?.stopped).toBe(true);

      // Another answer to u2 is a sibling of m2 and is shown; m2 stays.
      const saved = await store.saveMessages("studio", id, {
        after: "u2",
        messages: [message("m3", "model", "another answer")],
      });
      expect(saved?.map((item) => [item.id, item.parentId, typeof item.createdAt])).toEqual([
        ["m3", "u2", "string"],
      ]);
      expect(await shown(id)).toEqual(["u1", "m1", "u2", "m3"]);

      // A new first message is a sibling of u1.
      await store.saveMessages("studio", id, {
        after: null,
        messages: [message("u4", "user", "edited")],
      });
      expect(await shown(id)).toEqual(["u4"]);
      expect((await store.get("studio", id))?.messages.map((item) => item.id)).toEqual([
        "u1",
        "m1",
        "u2",
        "m2",
        "m3",
        "u4",
      ]);

      // Replace in place (choosing a candidate) keeps the tree.
      await store.saveMessages("studio", id, { messages: [message("m5", "model", "x")] });
      await store.saveMessages("studio", id, { messages: [message("u4", "user", "edited again")] });
      expect(await texts(id)).toEqual(["edited again", "x"]);

      await expect(
        store.saveMessages("studio", id, { after: "nope", messages: [] }),
      ).rejects.toThrow(UnknownMessageError);
      expect(await store.saveMessages("key:alice", id, { messages: [] })).toBeNull();
    });

    it("switching a version restores the whole branch below it as it was left", async () => {
      const { id } = await store.create("studio", { title: "t", settings });
      await store.saveMessages("studio", id, {
        messages: [
          message("u1", "user", "q1"),
          message("a1", "model", "r1"),
          message("u2", "user", "q2"),
          message("a2", "model", "r2"),
        ],
      });
      // Edit u1: a sibling with its own answer.
      await store.saveMessages("studio", id, {
        after: null,
        messages: [message("u1b", "user", "q1 edited"), message("a1b", "model", "r1b")],
      });
      expect(await shown(id)).toEqual(["u1b", "a1b"]);
      expect(await store.selectMessage("studio", id, "u1")).toBe(true);
      expect(await shown(id)).toEqual(["u1", "a1", "u2", "a2"]);
      // Deeper: regenerate a2, then switch back to it.
      await store.saveMessages("studio", id, {
        after: "u2",
        messages: [message("a2b", "model", "r2b")],
      });
      expect(await shown(id)).toEqual(["u1", "a1", "u2", "a2b"]);
      await store.selectMessage("studio", id, "u1b");
      await store.selectMessage("studio", id, "u1");
      expect(await shown(id)).toEqual(["u1", "a1", "u2", "a2b"]);
      await store.selectMessage("studio", id, "a2");
      expect(await shown(id)).toEqual(["u1", "a1", "u2", "a2"]);
      expect(await store.selectMessage("studio", id, "nope")).toBe(false);
      expect(await store.selectMessage("key:alice", id, "a2")).toBeNull();
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
        let next = await store.messageAfter("studio", id, 0);
        next;
        next = await store.messageAfter("studio", id, next.sequence)
      )
        read.push(next.message.content.parts[0]?.text ?? "");
      expect(read).toEqual(["one", "two", "three"]);
      expect(await store.messageAfter("studio", "no-such-conversation", 0)).toBeNull();

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

  describe("turns", () => {
    const answer = (id: string) => message(id, "model", "", { settings });

    it("marks an answer followed for its owner only, never shortening a mark, and shows its lease", async () => {
      const { id } = await store.create("studio", { title: "New chat", settings });
      await store.beginTurn(
        "studio",
        id,
        {
          parentId: null,
          prompt: message("p1", "user", "hi"),
          answer: answer("a1"),
          leaseUntil: 5000,
        },
        1000,
      );
      expect(await store.answerRunState("studio", id, "a1")).toEqual({
        stopRequested: false,
        followedUntil: 0,
      });
      expect(await store.answerLease("studio", id, "a1")).toEqual({ generatingUntil: 5000 });
      expect(await store.answerLease("key:alice", id, "a1")).toBeNull();
      await store.followAnswer("key:alice", id, "a1", 8000);
      expect((await store.answerRunState("studio", id, "a1"))!.followedUntil).toBe(0);
      await store.followAnswer("studio", id, "a1", 8000);
      await store.followAnswer("studio", id, "a1", 7000);
      expect(
        await store.saveAnswerProgress("studio", id, message("a1", "model", "some"), 6000),
      ).toEqual({
        stopRequested: false,
        followedUntil: 8000,
      });
      // Each write of progress moves the lease: what a follower looks at.
      expect(await store.answerLease("studio", id, "a1")).toEqual({ generatingUntil: 6000 });
      expect(await store.renewAnswerLease("studio", id, "a1", 6500)).toEqual({
        stopRequested: false,
        followedUntil: 8000,
      });
      await store.finishAnswer("studio", id, message("a1", "model", "done"));
      expect(await store.answerLease("studio", id, "a1")).toEqual({ generatingUntil: null });
      expect(await store.answerRunState("studio", id, "a1")).toBeNull();
      await store.followAnswer("studio", id, "a1", 9000);
      expect(await store.answerLease("studio", id, "a1")).toEqual({ generatingUntil: null });
      await store.delete("studio", id);
      expect(await store.answerLease("studio", id, "a1")).toBeNull();
    });

    it("passes answer signals to the other instances (PostgreSQL; SQLite has none to tell)", async () => {
      const other = await data.reopen();
      const received: AnswerSignalPayload[] = [];
      const unsubscribe = other.stores.conversations.onAnswerSignal((payload) =>
        received.push(payload),
      );
      if (data.dialect === "postgres") {
        // Something else on the channel is not a signal.
        await data.database.get("SELECT pg_notify('genstudio_answers', 'not a signal')");
        // The listening connection opens in the background: signal until one arrives.
        await expect
          .poll(
            async () => {
              await store.signalAnswer("studio", "conversation-1", "a1", "followed");
              return received.length;
            },
            { timeout: 10_000 },
          )
          .toBeGreaterThan(0);
        expect(received[0]).toEqual({
          ownerId: "studio",
          conversationId: "conversation-1",
          answerId: "a1",
          signal: "followed",
        });
        unsubscribe();
        const seen = received.length;
        await store.signalAnswer("studio", "conversation-1", "a1", "stop");
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(received.length).toBe(seen);
      } else {
        await store.signalAnswer("studio", "conversation-1", "a1", "followed");
        expect(received).toEqual([]);
        unsubscribe();
      }
    });

    it("adds the prompt and a streaming answer once, creating the conversation with a title from the prompt", async () => {
      const id = "browser-chat-0001";
      const input = {
        parentId: null,
        prompt: message("p1", "user", "## Explain **the tides**\n\nin detail"),
        answer: answer("a1"),
        leaseUntil: 10_000,
        create: { settings },
      };
      const first = (await store.beginTurn("studio", id, input, 1000))!;
      expect(first.created).toBe(true);
      expect(first.title).toBe("Explain the tides in detail");
      expect(first.history.map((item) => item.id)).toEqual(["p1"]);
      expect(first.answer.streaming).toBe(true);
      // The same send again (a retry after a lost answer): nothing new.
      const again = (await store.beginTurn("studio", id, input, 1500))!;
      expect(again.created).toBe(false);
      expect(again.prompt?.id).toBe("p1");
      expect((await store.get("studio", id))!.messages).toHaveLength(2);
      expect(await store.list("studio")).toHaveLength(1);
      // Another owner cannot reach the turn; the same id makes a conversation of its own.
      expect(await store.beginTurn("key:alice", id, { ...input, create: undefined })).toBeNull();
      const theirs = (await store.beginTurn("key:alice", id, input, 2000))!;
      expect(theirs.created).toBe(true);
      expect((await store.get("studio", id))!.messages).toHaveLength(2);
    });

    it("persists progress, reports a stop, finishes searchable; an expired lease reads as interrupted", async () => {
      const { id } = await store.create("studio", { title: "New chat", settings });
      await store.beginTurn(
        "studio",
        id,
        {
          parentId: null,
          prompt: message("p1", "user", "hello"),
          answer: answer("a1"),
          leaseUntil: 5000,
        },
        1000,
      );
      expect(
        await store.saveAnswerProgress("studio", id, message("a1", "model", "partial zebra"), 6000),
      ).toEqual({
        stopRequested: false,
        followedUntil: 0,
      });
      expect(await store.requestAnswerStop("key:alice", id, "a1")).toBeNull();
      expect(await store.requestAnswerStop("studio", id, "a1")).toBe(true);
      expect(
        await store.saveAnswerProgress(
          "studio",
          id,
          message("a1", "model", "partial zebra more"),
          7000,
        ),
      ).toEqual({
        stopRequested: true,
        followedUntil: 0,
      });
      // Not searchable until finished (a partial index entry per write would cost a write each).
      expect(await store.search("studio", "zebra")).toEqual([]);
      const finished = (await store.finishAnswer(
        "studio",
        id,
        message("a1", "model", "zebra done", { stopped: true }),
      ))!;
      expect(finished.message.streaming).toBeUndefined();
      expect(finished.message.stopped).toBe(true);
      expect((await store.search("studio", "zebra"))[0]?.match).toBe(
        `${SEARCH_MARK_START}zebra${SEARCH_MARK_END} done`,
      );
      expect(await store.finishAnswer("studio", id, message("a1", "model", "again"))).toBeNull();

      await store.beginTurn(
        "studio",
        id,
        { parentId: "p1", answer: answer("a2"), leaseUntil: 9000 },
        8000,
      );
      await store.saveAnswerProgress("studio", id, message("a2", "model", "half an answer"), 9000);
      const before = (await store.get("studio", id))!.messages.find((item) => item.id === "a2")!;
      expect(before.streaming ?? before.interrupted).toBeTruthy();
      expect(await store.finishInterruptedAnswers("studio", id, 9500)).toBe(1);
      const after = (await store.get("studio", id))!.messages.find((item) => item.id === "a2")!;
      expect(after).toMatchObject({ interrupted: true, parentId: "p1" });
      expect(after.streaming).toBeUndefined();
      expect(after.content.parts[0]?.text).toBe("half an answer");
      expect(await shown(id)).toEqual(["p1", "a2"]);
    });

    it("regenerates as a sibling and refuses a regeneration of something that is not a prompt", async () => {
      const { id } = await store.create("studio", { title: "t", settings });
      await store.beginTurn("studio", id, {
        parentId: null,
        prompt: message("p1", "user", "q"),
        answer: answer("a1"),
        leaseUntil: Date.now() + 60_000,
      });
      await store.finishAnswer("studio", id, message("a1", "model", "first"));
      const second = (await store.beginTurn("studio", id, {
        parentId: "p1",
        answer: answer("a2"),
        leaseUntil: Date.now() + 60_000,
      }))!;
      expect(second.history.map((item) => item.id)).toEqual(["p1"]);
      expect(await shown(id)).toEqual(["p1", "a2"]);
      await expect(
        store.beginTurn("studio", id, { parentId: "a1", answer: answer("a3"), leaseUntil: 1 }),
      ).rejects.toThrow(/not a prompt/);
      await expect(
        store.beginTurn("studio", id, { parentId: "zz", answer: answer("a4"), leaseUntil: 1 }),
      ).rejects.toThrow(UnknownMessageError);
    });

    it("two tabs editing the same message keep both branches", async () => {
      const { id } = await store.create("studio", { title: "t", settings });
      await store.saveMessages("studio", id, {
        messages: [message("u1", "user", "q"), message("a1", "model", "r")],
      });
      for (const tab of ["x", "y"])
        await store.beginTurn("studio", id, {
          parentId: null,
          prompt: message(`u1${tab}`, "user", `edit ${tab}`),
          answer: answer(`a1${tab}`),
          leaseUntil: Date.now() + 60_000,
        });
      const roots = (await store.get("studio", id))!.messages.filter((item) => !item.parentId);
      expect(roots.map((item) => item.id)).toEqual(["u1", "u1x", "u1y"]);
    });
  });

  describe("search", () => {
    it("finds words in any message of any branch, newest first, with the passage marked", async () => {
      const old = await store.create("studio", { title: "Old", settings }, 1000);
      await store.saveMessages(
        "studio",
        old.id,
        { messages: [message("u1", "user", "Tell me about the Lighthouse of Alexandria")] },
        1000,
      );
      const recent = await store.create("studio", { title: "Recent", settings }, 2000);
      await store.saveMessages(
        "studio",
        recent.id,
        {
          messages: [
            message("u1", "user", "Ships"),
            message("a1", "model", "A lighthouse guides ships; lighthouses are tall."),
          ],
        },
        2000,
      );
      await store.saveMessages("studio", recent.id, {
        after: null,
        messages: [message("u2", "user", "x")],
      });
      await store.create("key:alice", { title: "lighthouse", settings });

      const results = await store.search("studio", "lighthou");
      expect(results.map((item) => item.title)).toEqual(["Recent", "Old"]);
      expect(results[0]!.match).toContain(`${SEARCH_MARK_START}lighthouse${SEARCH_MARK_END}`);
      expect(results[1]!.match).toContain(`${SEARCH_MARK_START}Lighthouse${SEARCH_MARK_END}`);
      // Every word must match; quotes, brackets and operators are just words (or nothing).
      expect((await store.search("studio", "lighthouse alexandria")).map((r) => r.title)).toEqual([
        "Old",
      ]);
      expect((await store.search("studio", '"ships)*')).map((r) => r.title)).toEqual(["Recent"]);
      expect(fullTextQuery('a "b" c*')).toBe('"a" "b" "c"*');
      expect(fullTextQuery("  ... ")).toBeNull();
    });
  });

  describe("import", () => {
    it("stores conversations with their tree and choices under new ids", async () => {
      const [id] = await store.importConversations("studio", [
        {
          title: "Imported",
          settings,
          createdAt: 1000,
          updatedAt: 3000,
          selectedRootId: "u1",
          messages: [
            { ...message("u1", "user", "q"), parentId: null, selectedChildId: "a1" },
            { ...message("a1", "model", "r1"), parentId: "u1" },
            { ...message("a2", "model", "r2"), parentId: "u1" },
            { ...message("u9", "user", "other"), parentId: null },
          ],
        },
      ]);
      expect(await shown(id!)).toEqual(["u1", "a1"]);
      expect((await store.get("studio", id!))?.updatedAt).toBe(new Date(3000).toISOString());
      expect((await store.search("studio", "r2")).map((item) => item.id)).toEqual([id]);
    });
  });

  it("holds concurrent writes to the owner's quota, checked with each write (on PostgreSQL from two instances)", async () => {
    // Several instances share a database only on PostgreSQL (SQLite serves one process).
    const second = kind.dialect === "postgres" ? (await data.reopen()).stores : data.stores;
    const stores = [store, second.conversations];
    const title = "x".repeat(1000);
    // Room for three conversations of this title and their settings, not four.
    const perConversation = title.length + JSON.stringify(settings).length;
    const limit = 3 * perConversation + perConversation / 2;
    const admission = {
      admit({ bytes }: { bytes: number }) {
        if (bytes + perConversation > limit) throw new Error("over the quota");
      },
    };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, (_, index) =>
        stores[index % 2]!.create("key:quota", { title, settings, admission }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(3);
    expect(await store.list("key:quota")).toHaveLength(3);
    // A turn and an import are held the same way.
    const turns = await Promise.allSettled(
      Array.from({ length: 4 }, (_, index) =>
        stores[index % 2]!.beginTurn("key:quota", `quota-turn-${index}-0000`, {
          parentId: null,
          answer: message(`a${index}`, "model", ""),
          leaseUntil: Date.now() + 60_000,
          create: { title, settings },
          admission,
        }),
      ),
    );
    expect(turns.every((outcome) => outcome.status === "rejected")).toBe(true);
    await expect(
      store.importConversations(
        "key:quota",
        [{ title, settings, createdAt: 1, updatedAt: 1, messages: [] }],
        admission,
      ),
    ).rejects.toThrow("over the quota");
  });
});

/** A database with the schema of the migrations before `version`, for a migration's test. */
async function oldDatabase(
  dialect: "sqlite" | "postgres",
  version: number,
): Promise<{ database: SqlDatabase; cleanup(): Promise<void> }> {
  const before = MIGRATIONS.filter((migration) => migration.version < version);
  if (dialect === "sqlite") {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-migration-test-"));
    const database = SqliteDatabase.open(dataDir);
    await migrate(database, before);
    return {
      database,
      async cleanup() {
        await database.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const serverUrl = process.env.TEST_DATABASE_URL!;
  const schema = `test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const database = new PostgresDatabase({ connectionString: urlWithSchema(serverUrl, schema) });
  await migrate(database, before);
  return {
    database,
    async cleanup() {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP SCHEMA ${schema} CASCADE`);
      await dropper.end();
    },
  };
}

describe.each(testDatabaseKinds())("migration 8 ($dialect)", (kind) => {
  it("turns every existing conversation into one branch, shown as before, and indexes it", async () => {
    const { database, cleanup } = await oldDatabase(kind.dialect, 8);
    try {
      await database.run(
        "INSERT INTO conversations (id, owner_id, title, settings_json, created_at, updated_at) VALUES ('c1', 'studio', 'Old chat', ?, 1, 2)",
        [JSON.stringify(settings)],
      );
      const insert = (id: string, position: number, role: string, value: unknown) =>
        database.run(
          "INSERT INTO conversation_messages (conversation_id, id, position, role, message_json, created_at) VALUES ('c1', ?, ?, ?, ?, 1)",
          [id, position, role, JSON.stringify(value)],
        );
      await insert("u1", 0, "user", message("u1", "user", "first question"));
      await insert("a1", 1, "model", {
        role: "model",
        content: {
          role: "model",
          parts: [{ text: "secret thoughts", thought: true }, { text: "an answer about otters" }],
        },
      });
      await insert("u2", 5, "user", message("u2", "user", "second"));
      await migrate(database);
      const { ConversationStore } = await import("./conversation-store");
      const store = new ConversationStore(database);
      const conversation = (await store.get("studio", "c1"))!;
      expect(conversation.messages.map((item) => [item.id, item.parentId])).toEqual([
        ["u1", null],
        ["a1", "u1"],
        ["u2", "a1"],
      ]);
      expect(currentPath(conversation).map((item) => item.id)).toEqual(["u1", "a1", "u2"]);
      expect((await store.search("studio", "otters")).map((item) => item.id)).toEqual(["c1"]);
      expect(await store.search("studio", "secret")).toEqual([]);
    } finally {
      await cleanup();
    }
  });
});

describe.each(testDatabaseKinds())("migration 19 ($dialect)", (kind) => {
  it("keeps every conversation and message under its id, and frees the id for other owners", async () => {
    const { database, cleanup } = await oldDatabase(kind.dialect, 19);
    try {
      const conversation = (id: string, owner: string, title: string) =>
        database.run(
          "INSERT INTO conversations (id, owner_id, title, settings_json, created_at, updated_at, selected_root_id) VALUES (?, ?, ?, ?, 1, 2, 'u1')",
          [id, owner, title, JSON.stringify(settings)],
        );
      const insert = (
        conversationId: string,
        id: string,
        parentId: string | null,
        value: StoredMessage,
        generatingUntil: number | null = null,
      ) =>
        database.run(
          "INSERT INTO conversation_messages (conversation_id, id, parent_id, role, message_json, search_text, generating_until, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1)",
          [
            conversationId,
            id,
            parentId,
            value.role,
            JSON.stringify(value),
            value.content.parts[0]?.text ?? "",
            generatingUntil,
          ],
        );
      await conversation("old-chat-0001", "studio", "About otters");
      await insert("old-chat-0001", "u1", null, message("u1", "user", "tell me of otters"));
      await insert("old-chat-0001", "a1", "u1", message("a1", "model", "otters float"));
      await insert("old-chat-0001", "a2", "u1", message("a2", "model", ""), 50_000);
      await conversation("old-chat-0002", "key:alice", "Alice's");
      await insert("old-chat-0002", "u1", null, message("u1", "user", "alice's badgers"));

      await migrate(database);
      const { ConversationStore } = await import("./conversation-store");
      const store = new ConversationStore(database);
      const kept = (await store.get("studio", "old-chat-0001"))!;
      expect(kept.title).toBe("About otters");
      expect(kept.messages.map((item) => [item.id, item.parentId])).toEqual([
        ["u1", null],
        ["a1", "u1"],
        ["a2", "u1"],
      ]);
      expect((await store.search("studio", "otters")).map((item) => item.id)).toEqual([
        "old-chat-0001",
      ]);
      expect(await store.get("studio", "old-chat-0002")).toBeNull();
      expect((await store.search("key:alice", "badgers")).map((item) => item.id)).toEqual([
        "old-chat-0002",
      ]);
      // An answer generated when the server stopped is still the runner's to write, by owner.
      expect(
        await store.saveAnswerProgress(
          "studio",
          "old-chat-0001",
          message("a2", "model", "otters sleep"),
          60_000,
        ),
      ).toEqual({ stopRequested: false, followedUntil: 0 });

      // The id another owner had before is free for this one, and new turns go where they belong.
      const input = {
        parentId: null,
        prompt: message("u1", "user", "studio's own"),
        answer: message("a1", "model", "", { settings }),
        leaseUntil: 10_000,
        create: { settings },
      };
      expect((await store.beginTurn("studio", "old-chat-0002", input, 3000))!.created).toBe(true);
      expect((await store.get("key:alice", "old-chat-0002"))!.messages).toHaveLength(1);
      expect((await store.get("studio", "old-chat-0002"))!.messages).toHaveLength(2);
      // Deleting still takes a conversation's messages with it.
      await store.delete("studio", "old-chat-0001", 4000);
      await store.purgeDeleted(4000);
      const left = await database.get<{ n: number }>(
        "SELECT count(*) AS n FROM conversation_messages",
      );
      expect(Number(left!.n)).toBe(3);
    } finally {
      await cleanup();
    }
  });
});
