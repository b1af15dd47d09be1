import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConversationStore } from "@/lib/db/stores/conversation-store";
import { createLocalBackend, type LocalBackend } from "@/lib/engine/local-backend";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";
import { candidateText } from "@/lib/studio/accumulate-response";
import type { ConversationSettings, StoredMessage } from "@/lib/studio/conversation-schema";
import type { TurnEvent } from "@/lib/studio/turn-events";
import { createTurnRunner, type TurnRunner } from "./turn-runner";

const settings = (maxOutputTokens: number): ConversationSettings => ({
  model: "models/gemini-2.5-flash",
  systemInstruction: "",
  generationConfig: { maxOutputTokens, thinkingConfig: { thinkingBudget: 0 } },
  safetySettings: [],
});
const caller = { ownerId: "studio" };
const sentence = "The tide comes in over the warm sand and goes out again. ";
const longPrompt = `Repeat after me: ${sentence.repeat(400)}`;
/** About 50,000 tokens: still streaming long after the first few chunks, on any machine. */
const veryLongPrompt = `Repeat after me: ${sentence.repeat(4000)}`;

/** Counts every update of a message row, at the database itself (SQLite or PostgreSQL). */
async function countWrites(data: TestDatabase): Promise<void> {
  await data.database.run("CREATE TABLE message_writes (id TEXT)");
  if (data.dialect === "sqlite")
    await data.database.run(
      "CREATE TRIGGER count_message_updates AFTER UPDATE ON conversation_messages BEGIN INSERT INTO message_writes VALUES (new.id); END",
    );
  else {
    await data.database.run(
      "CREATE FUNCTION count_message_update() RETURNS trigger AS $$ BEGIN INSERT INTO message_writes VALUES (NEW.id); RETURN NEW; END $$ LANGUAGE plpgsql",
    );
    await data.database.run(
      "CREATE TRIGGER count_message_updates AFTER UPDATE ON conversation_messages FOR EACH ROW EXECUTE FUNCTION count_message_update()",
    );
  }
}

describe.each(testDatabaseKinds())("turn runner ($dialect)", (kind) => {
  let data: TestDatabase;
  let store: ConversationStore;
  let backend: LocalBackend;
  let runner: TurnRunner;

  beforeEach(async () => {
    data = await kind.open();
    store = data.stores.conversations;
    backend = createLocalBackend({
      stores: data.stores,
      dataDir: data.dataDir,
      sweepIntervalMs: 0,
    });
    runner = createTurnRunner({
      conversations: store,
      backend: () => backend,
      flushIntervalMs: 50,
      quietMs: 200,
    });
    await countWrites(data);
  });

  afterEach(async () => {
    await runner.settled();
    await data.cleanup();
  });

  /** The local engine, each chunk 20 ms after the last: an answer that lasts, whatever the machine. */
  function pacedBackend(): LocalBackend {
    return {
      ...backend,
      async *streamGenerateContent(...args: Parameters<LocalBackend["streamGenerateContent"]>) {
        for await (const chunk of backend.streamGenerateContent(...args)) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          yield chunk;
        }
      },
    } as LocalBackend;
  }

  function turn(answerId: string, text: string, maxOutputTokens = 4000, extra = {}) {
    return {
      parentId: null,
      prompt: { id: `${answerId}-prompt`, content: { role: "user", parts: [{ text }] } },
      answerId,
      settings: settings(maxOutputTokens),
      create: {},
      ...extra,
    };
  }

  async function readAll(
    events: AsyncIterable<TurnEvent>,
    stopAfter?: (event: TurnEvent) => boolean,
  ) {
    const seen: TurnEvent[] = [];
    for await (const event of events) {
      seen.push(event);
      if (stopAfter?.(event)) break;
    }
    return seen;
  }

  function chunkText(events: TurnEvent[]): string {
    return events
      .map((event) => ("chunk" in event ? candidateText(event.chunk.candidates?.[0]) : ""))
      .join("");
  }

  function doneAnswer(events: TurnEvent[]): StoredMessage {
    const last = events[events.length - 1];
    if (!last || !("done" in last)) throw new Error("the stream did not end with done");
    return last.done.answer;
  }

  async function writesOf(id: string): Promise<number> {
    const row = await data.database.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM message_writes WHERE id = ?",
      [id],
    );
    return Number(row!.n);
  }

  describe("turns", () => {
    it("streams the answer, stores it whole and writes its progress in batches, not per chunk", async () => {
      const events = await readAll(
        await runner.start(
          caller,
          "conversation-0001",
          turn("a1", longPrompt),
          new AbortController().signal,
        ),
      );
      expect("turn" in events[0]!).toBe(true);
      const chunks = events.filter((event) => "chunk" in event).length;
      const answer = doneAnswer(events);
      expect(answer.streaming).toBeUndefined();
      expect(answer.candidates?.[0]?.finishReason).toBeDefined();
      expect(candidateText(answer.candidates?.[0])).toBe(chunkText(events));
      const stored = (await store.get("studio", "conversation-0001"))!;
      expect(stored.title).toMatch(/^Repeat after me: The tide/);
      expect(stored.messages.map((message) => [message.id, message.parentId])).toEqual([
        ["a1-prompt", null],
        ["a1", "a1-prompt"],
      ]);
      expect(candidateText(stored.messages[1]!.candidates?.[0])).toBe(chunkText(events));
      expect(chunks).toBeGreaterThan(50);
      expect(await writesOf("a1")).toBeLessThan(chunks / 5);
    });

    it("writes as often as the answer grows, not as often as its chunks arrive: fast or slow, the same few writes", async () => {
      const writesAt = async (answerId: string, conversationId: string, pauseMs: number) => {
        // The same engine, its chunks handed on with a pause between them (an upstream's pace).
        const paced = {
          ...backend,
          async *streamGenerateContent(...args: Parameters<LocalBackend["streamGenerateContent"]>) {
            for await (const chunk of backend.streamGenerateContent(...args)) {
              await new Promise((resolve) => setTimeout(resolve, pauseMs));
              yield chunk;
            }
          },
        } as LocalBackend;
        const pacedRunner = createTurnRunner({
          conversations: store,
          backend: () => paced,
          flushIntervalMs: 20,
          progressCharacters: 4000,
          quietMs: 60_000,
        });
        const events = await readAll(
          await pacedRunner.start(
            caller,
            conversationId,
            turn(answerId, longPrompt, 4000),
            new AbortController().signal,
          ),
        );
        await pacedRunner.settled();
        return { writes: await writesOf(answerId), characters: chunkText(events).length };
      };
      const fast = await writesAt("fast", "conversation-fast1", 0);
      const slow = await writesAt("slow", "conversation-slow1", 4);
      expect(slow.characters).toBe(fast.characters);
      // A write per 4,000 characters arrived (the last may wait for the final one), plus the final write.
      const most = Math.ceil(fast.characters / 4000) + 1;
      expect(fast.writes).toBeLessThanOrEqual(most);
      expect(slow.writes).toBeLessThanOrEqual(most);
      expect(slow.writes).toBeGreaterThanOrEqual(Math.floor(fast.characters / 4000) - 1);
    });

    it("finishes the answer when its reader goes away, and a reader that joins gets all of it", async () => {
      const gone = new AbortController();
      const early = await readAll(
        await runner.start(
          caller,
          "conversation-0002",
          turn("a1", longPrompt, 60_000),
          gone.signal,
        ),
        (event) => "chunk" in event,
      );
      gone.abort();
      expect(early.some((event) => "chunk" in event)).toBe(true);

      const joined = await readAll(
        await runner.attach(caller, "conversation-0002", "a1", new AbortController().signal),
      );
      const first = joined[0]!;
      expect("snapshot" in first || "done" in first).toBe(true);
      const before = "snapshot" in first ? candidateText(first.snapshot.candidates?.[0]) : "";
      const answer = doneAnswer(joined);
      // What the joining reader saw adds up to the whole answer.
      if ("snapshot" in first)
        expect(before + chunkText(joined)).toBe(candidateText(answer.candidates?.[0]));
      await runner.settled();
      const stored = (await store.get("studio", "conversation-0002"))!.messages[1]!;
      expect(stored.streaming).toBeUndefined();
      expect(stored.candidates?.[0]?.finishReason).toBe("STOP");
      expect(candidateText(stored.candidates?.[0])).toBe(candidateText(answer.candidates?.[0]));
    });

    it("the same turn sent twice is one turn", async () => {
      const input = turn("a1", "Hello there", 50);
      const first = await readAll(
        await runner.start(caller, "conversation-0003", input, new AbortController().signal),
      );
      const again = await readAll(
        await runner.start(caller, "conversation-0003", input, new AbortController().signal),
      );
      expect("turn" in again[0]!).toBe(true);
      expect(doneAnswer(again).id).toBe(doneAnswer(first).id);
      expect((await store.get("studio", "conversation-0003"))!.messages).toHaveLength(2);
    });

    it("stops an answer, keeping what was generated", async () => {
      const events = await runner.start(
        caller,
        "conversation-0004",
        turn("a1", veryLongPrompt, 60_000),
        new AbortController().signal,
      );
      const seen: TurnEvent[] = [];
      let chunks = 0;
      for await (const event of events) {
        seen.push(event);
        if ("chunk" in event && ++chunks === 3)
          expect(await runner.stop(caller, "conversation-0004", "a1")).toBe(true);
      }
      const answer = doneAnswer(seen);
      expect(answer.stopped).toBe(true);
      expect(candidateText(answer.candidates?.[0]).length).toBeGreaterThan(0);
      expect(await runner.stop(caller, "conversation-0004", "a1")).toBe(false);
      await expect(
        runner.stop({ ownerId: "key:other" }, "conversation-0004", "a1"),
      ).rejects.toThrow(/not found/);
    });

    it("two owners' answers under one conversation id and answer id run apart", async () => {
      const paced = createTurnRunner({
        conversations: store,
        backend: () => pacedBackend(),
        flushIntervalMs: 50,
        quietMs: 200,
      });
      const other = createTurnRunner({
        conversations: store,
        backend: () => backend,
        flushIntervalMs: 50,
        quietMs: 200,
      });
      const alice = { ownerId: "key:alice" };
      const id = "conversation-0009";
      const mine = readAll(
        await paced.start(caller, id, turn("a1", longPrompt, 400), new AbortController().signal),
      );
      const theirs = readAll(
        await paced.start(
          alice,
          id,
          turn("a1", `Mine alone. ${veryLongPrompt}`, 60_000),
          new AbortController().signal,
        ),
      );
      // Alice's own conversation, joined live by its owner alone.
      const joined = await paced.attach(alice, id, "a1", new AbortController().signal);
      for await (const event of joined) {
        expect("snapshot" in event).toBe(true);
        break;
      }
      // Stopped from another instance: through the database (and PostgreSQL's signal).
      expect(await other.stop(alice, id, "a1")).toBe(true);
      const [mineDone, theirsDone] = await Promise.all([mine, theirs]);
      expect(doneAnswer(theirsDone).stopped).toBe(true);
      expect(doneAnswer(mineDone).stopped).toBeUndefined();
      expect(candidateText(doneAnswer(mineDone).candidates?.[0]).length).toBeGreaterThan(0);
      const prompts = async (ownerId: string) =>
        (await store.get(ownerId, id))!.messages
          .filter((item) => item.role === "user")
          .map((item) => item.content.parts[0]?.text?.slice(0, 11));
      expect(await prompts("studio")).toEqual(["Repeat afte"]);
      expect(await prompts("key:alice")).toEqual(["Mine alone."]);
      await paced.settled();
    });

    it("another instance follows what the answer writes, and can stop it", async () => {
      // Paced, so the answer is still being generated when the follower stops it (unpaced, a
      // fast machine finished it between the stop and the generator's next look).
      const generating = createTurnRunner({
        conversations: store,
        backend: () => pacedBackend(),
        flushIntervalMs: 50,
        quietMs: 200,
      });
      const other = createTurnRunner({
        conversations: store,
        backend: () => backend,
        flushIntervalMs: 50,
        quietMs: 200,
        followIntervalMs: 20,
      });
      const reading = readAll(
        await generating.start(
          caller,
          "conversation-0005",
          turn("a1", veryLongPrompt, 60_000),
          new AbortController().signal,
        ),
      );
      // Wait for the first write of progress, then follow from the other instance.
      while ((await writesOf("a1")) < 1) await new Promise((resolve) => setTimeout(resolve, 10));
      const followed: TurnEvent[] = [];
      for await (const event of await other.attach(
        caller,
        "conversation-0005",
        "a1",
        new AbortController().signal,
      )) {
        followed.push(event);
        if (followed.length === 2)
          expect(await other.stop(caller, "conversation-0005", "a1")).toBe(true);
      }
      expect(followed.filter((event) => "snapshot" in event).length).toBeGreaterThanOrEqual(2);
      const answer = doneAnswer(followed);
      expect(answer.stopped).toBe(true);
      expect(doneAnswer(await reading).stopped).toBe(true);
      await generating.settled();
    });

    it("writes promptly while another instance follows the answer, and nothing while no one does", async () => {
      const paced = pacedBackend();
      // Left alone, this answer writes nothing for ten minutes: no size or quiet write comes
      // due (and its lease outlasts the test). Whatever a follower sees sooner, it owes to
      // following.
      const generating = createTurnRunner({
        conversations: store,
        backend: () => paced,
        progressCharacters: 10_000_000,
        quietMs: 600_000,
        leaseMs: 1_200_000,
      });
      const elsewhere = await data.reopen();
      const following = createTurnRunner({
        conversations: elsewhere.stores.conversations,
        backend: () => backend,
        followMarkMs: 900,
      });
      const sleep = (milliseconds: number) =>
        new Promise((resolve) => setTimeout(resolve, milliseconds));
      /** Writes of the answer during `milliseconds`. */
      const writesDuring = async (milliseconds: number) => {
        const before = await writesOf("a1");
        await sleep(milliseconds);
        return (await writesOf("a1")) - before;
      };
      const reading = readAll(
        await generating.start(
          caller,
          "conversation-0007",
          turn("a1", veryLongPrompt, 60_000),
          new AbortController().signal,
        ),
      );
      expect(await writesDuring(1500)).toBe(0);

      const leaving = new AbortController();
      const joined = await following.attach(caller, "conversation-0007", "a1", leaving.signal);
      const joinedAt = performance.now();
      // Did not hang: without following, nothing new would be written for ten minutes.
      const givingUp = setTimeout(() => leaving.abort(), 30_000);
      const lengths: number[] = [];
      for await (const event of joined) {
        if ("snapshot" in event) lengths.push(candidateText(event.snapshot.candidates?.[0]).length);
        // Four snapshots, each longer than the last: the follower keeps seeing new text.
        if (lengths.length === 5) break;
      }
      const followedMs = performance.now() - joinedAt;
      clearTimeout(givingUp);
      leaving.abort();
      expect(lengths).toHaveLength(5);
      for (let index = 1; index < lengths.length; index++)
        expect(lengths[index]).toBeGreaterThan(lengths[index - 1]!);
      const followedWrites = await writesOf("a1");
      expect(followedWrites).toBeGreaterThanOrEqual(4);
      // Batched still: at most one write of progress per 200 ms plus the follower's marks (one
      // per 300 ms), never one per chunk (one per 20 ms).
      expect(followedWrites).toBeLessThanOrEqual(Math.ceil(followedMs / 100) + 4);

      // The follower left: once its mark runs out (0.9 s), the answer writes nothing again.
      await expect.poll(() => writesDuring(1500), { timeout: 20_000, interval: 0 }).toBe(0);
      expect(await generating.stop(caller, "conversation-0007", "a1")).toBe(true);
      expect(doneAnswer(await reading).stopped).toBe(true);
      await generating.settled();
    }, 120_000);

    it("an answer whose runner died reads as interrupted, partial text kept", async () => {
      await store.beginTurn("studio", "conversation-0006", {
        parentId: null,
        prompt: { id: "p", role: "user", content: { role: "user", parts: [{ text: "hi" }] } },
        answer: {
          id: "a1",
          role: "model",
          content: { role: "model", parts: [{ text: "half" }] },
          settings: settings(10),
        },
        leaseUntil: Date.now() + 100,
        create: { settings: settings(10) },
      });
      const followed = await readAll(
        await createTurnRunner({
          conversations: store,
          backend: () => backend,
          followIntervalMs: 20,
        }).attach(caller, "conversation-0006", "a1", new AbortController().signal),
      );
      const answer = doneAnswer(followed);
      expect(answer).toMatchObject({ interrupted: true });
      expect(answer.content.parts[0]?.text).toBe("half");
      expect((await store.get("studio", "conversation-0006"))!.messages[1]!.interrupted).toBe(true);
    });
  });
});
