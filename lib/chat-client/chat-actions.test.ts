import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import type { StartTurn } from "@/lib/studio/conversation-schema";
import { currentLeaf } from "@/lib/studio/conversation-tree";
import {
  AFTER,
  answerTurn,
  chatPage,
  chunk,
  CONVERSATION,
  deferred,
  done,
  inflightText,
  message,
  networkFailure,
  scriptedServerPerTest,
  started,
  textOf,
  TURNS,
} from "@/lib/testing/chat-page";
import { errorReply, jsonReply } from "@/lib/testing/scripted-studio-server";

/**
 * What the chat page does, against a scripted turn stream: the real actions, turns, stream
 * reader, revealer, store and query cache, with the network answered by the route handlers'
 * own writers (lib/testing/scripted-studio-server.ts). Sending, Retry, versions.
 */

const server = scriptedServerPerTest();

describe("send", () => {
  it("creates the chat, shows the answer as it streams and keeps it as the server finished it", async () => {
    const { store, actions, navigated, conversation, stored } = chatPage();
    const more = deferred();
    answerTurn(server(), async function* (turn) {
      yield started(turn);
      yield chunk("Hel");
      await more.promise;
      yield chunk("lo");
      yield done(turn, "Hello", { usageMetadata: { totalTokenCount: 7 } });
    });
    const sending = actions.send(null, [{ text: "Hi" }]);

    await vi.waitFor(() => expect(inflightText(store)).toBe("Hel"));
    expect(store.getState().inflight?.phase).toBe("streaming");
    more.resolve();
    await sending;

    const [request] = server().made("POST", TURNS);
    const turn = request!.body as StartTurn;
    expect(navigated).toEqual([request!.path.split("/")[3]]);
    const id = navigated[0]!;
    expect(turn).toMatchObject({
      parentId: null,
      create: {},
      prompt: { content: { parts: [{ text: "Hi" }] } },
    });
    expect(textOf(stored(turn.answerId, id))).toBe("Hello");
    expect(stored(turn.answerId, id)?.streaming).toBeUndefined();
    expect(currentLeaf(conversation(id))?.id).toBe(turn.answerId);
    expect(conversation(id).updatedAt).toBe(AFTER);
    expect(store.getState().inflight).toBeNull();
    const trace = store.getState().traces[turn.answerId]!;
    expect(trace.events.map((event) => JSON.parse(event.data) as unknown)).toHaveLength(2);
    expect(trace.endedAt).toBeDefined();
  });

  it("sends a new chat's turn before the page goes to the conversation's address", async () => {
    const { actions, navigated } = chatPage();
    answerTurn(server(), async function* (turn) {
      yield started(turn);
      yield done(turn, "Hello");
    });
    const navigationsAtFetch: number[] = [];
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    fetchSpy.mockImplementation((input, init) => {
      navigationsAtFetch.push(navigated.length);
      fetchSpy.mockRestore();
      return fetch(input, init);
    });
    await actions.send(null, [{ text: "Hi" }]);

    // The router's work for the new address (done inside replaceState) comes after the send.
    expect(navigationsAtFetch).toEqual([0]);
    expect(navigated).toHaveLength(1);
  });

  it("sends nothing while another answer is in flight", async () => {
    const { actions } = chatPage([]);
    const finish = deferred();
    answerTurn(server(), async function* (turn) {
      yield started(turn);
      await finish.promise;
      yield done(turn, "first");
    });
    const first = actions.send(CONVERSATION, [{ text: "one" }]);
    await vi.waitFor(() => expect(server().made("POST", TURNS)).toHaveLength(1));
    await actions.send(CONVERSATION, [{ text: "two" }]);
    finish.resolve();
    await first;
    expect(server().made("POST", TURNS)).toHaveLength(1);
  });
});

describe("retry", () => {
  it("a send that did not reach the server is sent again with the same ids, and answered once", async () => {
    const { actions, conversation } = chatPage([]);
    networkFailure(server());
    answerTurn(server(), function* (turn) {
      yield started(turn);
      yield done(turn, "Answered");
    });
    await actions.send(CONVERSATION, [{ text: "Hello" }]);

    const [first, second] = server()
      .made("POST", TURNS)
      .map((request) => request.body as StartTurn);
    expect(second).toEqual(first);
    expect(conversation().messages.map((item) => [item.role, textOf(item)])).toEqual([
      ["user", "Hello"],
      ["model", "Answered"],
    ]);
  });

  it("a turn never sent says so, gives the prompt back, and Retry sends the same turn", async () => {
    const { store, actions, conversation, stored } = chatPage([]);
    for (let attempt = 0; attempt < 4; attempt++) networkFailure(server());
    await actions.send(CONVERSATION, [{ text: "Hello there" }]);

    const sent = server()
      .made("POST", TURNS)
      .map((request) => request.body as StartTurn);
    expect(sent).toHaveLength(4);
    const turn = sent[0]!;
    expect(new Set(sent.map((item) => JSON.stringify(item))).size).toBe(1);
    expect(stored(turn.answerId)?.error?.message).toBe(
      "Could not reach the studio server: fetch failed. The prompt was not sent.",
    );
    expect(actions.isUnsent(turn.answerId)).toBe(true);
    expect(store.getState().drafts[CONVERSATION]).toBe("Hello there");
    expect(store.getState().inflight).toBeNull();

    answerTurn(server(), function* (again) {
      yield started(again);
      yield done(again, "At last");
    });
    await actions.regenerate(CONVERSATION, turn.answerId);
    const retried = server().made("POST", TURNS)[4]!.body as StartTurn;
    expect(retried).toMatchObject({ answerId: turn.answerId, parentId: null, prompt: turn.prompt });
    expect(actions.isUnsent(turn.answerId)).toBe(false);
    expect(textOf(stored(turn.answerId))).toBe("At last");
    expect(stored(turn.answerId)?.error).toBeUndefined();
    expect(conversation().messages.map((item) => [item.id, textOf(item)])).toEqual([
      [turn.prompt!.id, "Hello there"],
      [turn.answerId, "At last"],
    ]);
  });

  it("a turn the server refused is not sent again: the answer shows the server's error", async () => {
    const { actions, stored } = chatPage([]);
    server().answer(
      "POST",
      TURNS,
      errorReply(new ApiError(400, "INVALID_ARGUMENT", "settings.model: unknown model")),
    );
    await actions.send(CONVERSATION, [{ text: "Hi" }]);
    const [request] = server().made("POST", TURNS);
    const turn = request!.body as StartTurn;
    expect(server().made("POST", TURNS)).toHaveLength(1);
    expect(stored(turn.answerId)?.error).toMatchObject({
      code: 400,
      status: "INVALID_ARGUMENT",
      message: "settings.model: unknown model",
    });
    expect(actions.isUnsent(turn.answerId)).toBe(false);
  });
});

describe("branch", () => {
  const prompt = message("prompt-one", "user", null, "Question");
  const answer = message("answer-one", "model", "prompt-one", "First answer");

  it("regenerate adds another answer to the same prompt and shows it; the first stays", async () => {
    const { actions, conversation, stored } = chatPage([prompt, answer]);
    answerTurn(server(), function* (turn) {
      yield started(turn);
      yield chunk("Second");
      yield done(turn, "Second answer");
    });
    await actions.regenerate(CONVERSATION, "answer-one");

    const turn = server().made("POST", TURNS)[0]!.body as StartTurn;
    expect(turn.parentId).toBe("prompt-one");
    expect(turn.prompt).toBeUndefined();
    expect(turn.answerId).not.toBe("answer-one");
    expect(textOf(stored("answer-one"))).toBe("First answer");
    expect(stored(turn.answerId)?.parentId).toBe("prompt-one");
    expect(currentLeaf(conversation())?.id).toBe(turn.answerId);
  });

  it("edit adds a new version of the prompt with its own answer; switching back shows the old branch", async () => {
    const { actions, conversation, stored } = chatPage([prompt, answer]);
    answerTurn(server(), function* (turn) {
      yield started(turn);
      yield done(turn, "Answer to the edit");
    });
    await actions.edit(CONVERSATION, "prompt-one", "Better question");

    const turn = server().made("POST", TURNS)[0]!.body as StartTurn;
    expect(turn.parentId).toBeNull();
    expect(turn.prompt?.id).not.toBe("prompt-one");
    expect(turn.prompt?.content.parts).toEqual([{ text: "Better question" }]);
    expect(conversation().selectedRootId).toBe(turn.prompt?.id);
    expect(currentLeaf(conversation())?.id).toBe(turn.answerId);
    expect(textOf(stored("prompt-one"))).toBe("Question");

    server().answer("POST", /\/selection$/, jsonReply({ id: CONVERSATION, updatedAt: AFTER }));
    actions.switchVersion(CONVERSATION, "prompt-one");
    expect(currentLeaf(conversation())?.id).toBe("answer-one");
    await vi.waitFor(() => expect(conversation().updatedAt).toBe(AFTER));
    expect(server().made("POST", /\/selection$/)[0]?.body).toEqual({ messageId: "prompt-one" });
  });
});
