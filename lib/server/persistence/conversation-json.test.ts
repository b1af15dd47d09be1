import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConversationSettings, StoredMessage } from "@/lib/studio/conversation-schema";
import type { ConversationStore } from "@/lib/db/stores/conversation-store";
import { tempData, type TempData } from "@/lib/testing/engine-files";
import { conversationJson, PIECE_CHARACTERS } from "./conversation-json";

const settings: ConversationSettings = {
  model: "models/gemini-2.5-flash",
  systemInstruction: "",
  generationConfig: {},
  safetySettings: [],
};

function message(id: string, text: string): StoredMessage {
  return { id, role: "user", content: { role: "user", parts: [{ text }] } };
}

let data: TempData;
let store: ConversationStore;

beforeEach(async () => {
  data = await tempData();
  store = data.stores.conversations;
});

afterEach(async () => {
  await data.cleanup();
});

async function pieces(ownerId: string, id: string): Promise<AsyncGenerator<string>> {
  return conversationJson(store, ownerId, (await store.getHead(ownerId, id))!);
}

async function all(reading: AsyncGenerator<string>): Promise<string[]> {
  const made: string[] = [];
  for await (const piece of reading) made.push(piece);
  return made;
}

describe("conversationJson", () => {
  it("is the conversation as one JSON document, also with no messages", async () => {
    const empty = await store.create("studio", { title: "empty", settings });
    expect(JSON.parse((await all(await pieces("studio", empty.id))).join(""))).toEqual(
      await store.get("studio", empty.id),
    );

    const { id } = await store.create("studio", { title: 'Grüße \u2028 "quoted"', settings });
    await store.saveMessages("studio", id, {
      messages: [message("u1", "one"), message("m1", "zwei – \u{1F30A}"), message("u2", "three")],
    });
    expect(JSON.parse((await all(await pieces("studio", id))).join(""))).toEqual(
      await store.get("studio", id),
    );
  });

  it("makes pieces of a bounded size, never the whole of a long conversation", async () => {
    const { id } = await store.create("studio", { title: "long", settings });
    const text = "x".repeat(100_000);
    await store.saveMessages("studio", id, {
      messages: Array.from({ length: 40 }, (_, index) => message(`m${index}`, text)),
    });
    const made = await all(await pieces("studio", id));
    expect(made.length).toBeGreaterThan(10);
    for (const piece of made) expect(piece.length).toBeLessThan(PIECE_CHARACTERS + 101_000);
    expect(JSON.parse(made.join("")).messages).toHaveLength(40);
  });

  it("ends as an error when the conversation changes between pieces, never mixing two versions", async () => {
    const { id } = await store.create("studio", { title: "changing", settings });
    await store.saveMessages("studio", id, {
      messages: Array.from({ length: 10 }, (_, index) => message(`m${index}`, "y".repeat(100_000))),
    });
    const reading = await pieces("studio", id);
    expect((await reading.next()).done).toBe(false);
    await store.update("studio", id, { title: "renamed meanwhile" });
    await expect(reading.next()).rejects.toThrow(/changed while it was read/);
  });
});
