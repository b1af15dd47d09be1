import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConversationSettings, StoredMessage } from "@/lib/studio/conversation-schema";
import {
  createConversation,
  getConversation,
  getConversationHead,
  saveMessages,
  updateConversation,
} from "@/lib/db/conversations";
import { openDatabase, type Db } from "@/lib/db/database";
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

let directory: string;
let db: Db;

beforeEach(() => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-conversation-json-"));
  db = openDatabase(directory);
});

afterEach(() => {
  db.close();
  fs.rmSync(directory, { recursive: true, force: true });
});

function pieces(ownerId: string, id: string): Generator<string> {
  return conversationJson(db, ownerId, getConversationHead(db, ownerId, id)!);
}

describe("conversationJson", () => {
  it("is the conversation as one JSON document, also with no messages", () => {
    const empty = createConversation(db, "studio", { title: "empty", settings });
    expect(JSON.parse([...pieces("studio", empty.id)].join(""))).toEqual(
      getConversation(db, "studio", empty.id),
    );

    const { id } = createConversation(db, "studio", { title: 'Grüße \u2028 "quoted"', settings });
    saveMessages(db, "studio", id, {
      messages: [message("u1", "one"), message("m1", "zwei – \u{1F30A}"), message("u2", "three")],
    });
    expect(JSON.parse([...pieces("studio", id)].join(""))).toEqual(
      getConversation(db, "studio", id),
    );
  });

  it("makes pieces of a bounded size, never the whole of a long conversation", () => {
    const { id } = createConversation(db, "studio", { title: "long", settings });
    const text = "x".repeat(100_000);
    saveMessages(db, "studio", id, {
      messages: Array.from({ length: 40 }, (_, index) => message(`m${index}`, text)),
    });
    const made = [...pieces("studio", id)];
    expect(made.length).toBeGreaterThan(10);
    for (const piece of made) expect(piece.length).toBeLessThan(PIECE_CHARACTERS + 101_000);
    expect(JSON.parse(made.join("")).messages).toHaveLength(40);
  });

  it("ends as an error when the conversation changes between pieces, never mixing two versions", () => {
    const { id } = createConversation(db, "studio", { title: "changing", settings });
    saveMessages(db, "studio", id, {
      messages: Array.from({ length: 10 }, (_, index) => message(`m${index}`, "y".repeat(100_000))),
    });
    const reading = pieces("studio", id);
    expect(reading.next().done).toBe(false);
    updateConversation(db, "studio", id, { title: "renamed meanwhile" });
    expect(() => reading.next()).toThrow(/changed while it was read/);
  });
});
