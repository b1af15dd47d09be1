import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import type { Conversation, StartTurn, StoredMessage } from "@/lib/studio/conversation-schema";
import { currentLeaf } from "@/lib/studio/conversation-tree";
import { conversationKeys } from "@/lib/studio/query-keys";
import { defaultSettings } from "@/lib/studio/settings-model";
import type { TurnEvent } from "@/lib/studio/turn-events";
import {
  DROP,
  errorReply,
  jsonReply,
  ScriptedStudioServer,
  turnStreamResponse,
  type TurnStep,
} from "@/lib/testing/scripted-studio-server";
import { createChatActions } from "./chat-actions";
import { createChatStore, type ChatStore } from "./chat-state";

/**
 * The chat client against a scripted turn stream: the real actions, turns, stream reader,
 * revealer, store and query cache, with the network answered by the route handlers' own
 * writers (lib/testing/scripted-studio-server.ts).
 */

const CONVERSATION = "conversation-under-test";
const BEFORE = "2026-01-01T00:00:00.000Z";
const AFTER = "2026-01-01T00:00:05.000Z";
const SETTINGS = defaultSettings();
const TURNS = /^\/api\/conversations\/[\w-]+\/turns$/;
const ATTACH = /^\/api\/conversations\/[\w-]+\/turns\/[\w-]+$/;
const STOP = /\/turns\/[\w-]+\/stop$/;

let server: ScriptedStudioServer;

beforeEach(() => {
  server = new ScriptedStudioServer();
  vi.stubGlobal("fetch", server.fetch);
});

afterEach(() => {
  vi.unstubAllGlobals();
  expect(server.unexpected).toEqual([]);
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

function message(id: string, role: "user" | "model", parentId: string | null, text: string) {
  return {
    id,
    role,
    parentId,
    content: { role, parts: [{ text }] },
    ...(role === "model" ? { settings: SETTINGS } : {}),
  } satisfies StoredMessage;
}

/** A page with the chat store, a query cache holding `messages` (when given) and the actions. */
function page(messages?: StoredMessage[]) {
  const store = createChatStore();
  const queryClient = new QueryClient();
  if (messages)
    queryClient.setQueryData<Conversation>(conversationKeys.detail(CONVERSATION), {
      id: CONVERSATION,
      title: "Under test",
      settings: SETTINGS,
      createdAt: BEFORE,
      updatedAt: BEFORE,
      messages,
    });
  const navigated: string[] = [];
  const actions = createChatActions({
    store,
    queryClient,
    navigate: (id) => navigated.push(id),
    retryDelayMs: 1,
  });
  const conversation = (id = CONVERSATION) =>
    queryClient.getQueryData<Conversation>(conversationKeys.detail(id))!;
  const stored = (id: string, conversationId = CONVERSATION) =>
    conversation(conversationId).messages.find((item) => item.id === id);
  return { store, actions, navigated, conversation, stored };
}

const textOf = (item: { content?: { parts?: { text?: string }[] } } | undefined) =>
  (item?.content?.parts ?? []).map((part) => part.text ?? "").join("");
const inflightText = (store: { getState(): ChatStore }) =>
  textOf(store.getState().inflight?.candidates?.[0]);

function chunk(text: string): TurnEvent {
  const response: GenerateContentResponse = {
    candidates: [{ index: 0, content: { role: "model", parts: [{ text }] } }],
  };
  return { chunk: response };
}

/** The server's first event of a turn: the prompt and the answer as stored when it began. */
function started(turn: StartTurn): TurnEvent {
  const promptId = turn.prompt?.id ?? turn.parentId;
  return {
    turn: {
      ...(turn.prompt ? { prompt: { role: "user", parentId: turn.parentId, ...turn.prompt } } : {}),
      answer: { ...message(turn.answerId, "model", promptId, ""), streaming: true },
      title: "Under test",
      previousUpdatedAt: BEFORE,
      updatedAt: AFTER,
      request: { contents: [{ role: "user", parts: [{ text: "the history" }] }] },
    },
  };
}

function done(turn: StartTurn, text: string, extra: Partial<StoredMessage> = {}): TurnEvent {
  const promptId = turn.prompt?.id ?? turn.parentId;
  return {
    done: {
      answer: { ...message(turn.answerId, "model", promptId, text), ...extra },
      updatedAt: AFTER,
      previousUpdatedAt: AFTER,
    },
  };
}

/** Queues the answer to the next turn sent: `script` gets the turn as the client sent it. */
function answerTurn(script: (turn: StartTurn) => AsyncIterable<TurnStep> | Iterable<TurnStep>) {
  server.answer("POST", TURNS, (request) =>
    turnStreamResponse(script(request.body as StartTurn), request.signal),
  );
}

function networkFailure() {
  server.answer("POST", TURNS, () => Promise.reject(new TypeError("fetch failed")));
}

describe("send", () => {
  it("creates the chat, shows the answer as it streams and keeps it as the server finished it", async () => {
    const { store, actions, navigated, conversation, stored } = page();
    const more = deferred();
    answerTurn(async function* (turn) {
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

    const [request] = server.made("POST", TURNS);
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

  it("sends nothing while another answer is in flight", async () => {
    const { actions } = page([]);
    const finish = deferred();
    answerTurn(async function* (turn) {
      yield started(turn);
      await finish.promise;
      yield done(turn, "first");
    });
    const first = actions.send(CONVERSATION, [{ text: "one" }]);
    await vi.waitFor(() => expect(server.made("POST", TURNS)).toHaveLength(1));
    await actions.send(CONVERSATION, [{ text: "two" }]);
    finish.resolve();
    await first;
    expect(server.made("POST", TURNS)).toHaveLength(1);
  });
});

describe("stop", () => {
  it("a stop asked while the turn is on its way is sent once the server has the turn", async () => {
    const { store, actions, stored } = page([]);
    const acknowledge = deferred();
    const stopped = deferred();
    server.answer("POST", STOP, () => {
      stopped.resolve();
      return jsonResponseOf({ stopped: true });
    });
    answerTurn(async function* (turn) {
      await acknowledge.promise;
      yield started(turn);
      yield chunk("Partial");
      await stopped.promise;
      yield done(turn, "Partial", { stopped: true });
    });
    const sending = actions.send(CONVERSATION, [{ text: "Long story" }]);
    await vi.waitFor(() => expect(store.getState().inflight?.phase).toBe("sending"));

    actions.stop();
    expect(store.getState().inflight?.stopping).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.made("POST", STOP)).toHaveLength(0);
    acknowledge.resolve();
    await sending;

    const turn = server.made("POST", TURNS)[0]!.body as StartTurn;
    expect(server.made("POST", STOP).map((request) => request.path)).toEqual([
      `/api/conversations/${CONVERSATION}/turns/${turn.answerId}/stop`,
    ]);
    expect(stored(turn.answerId)).toMatchObject({ stopped: true });
    expect(textOf(stored(turn.answerId))).toBe("Partial");
    expect(store.getState().inflight).toBeNull();
  });

  it("a stop the server refuses leaves the answer running and says why", async () => {
    const { store, actions } = page([]);
    const finish = deferred();
    server.answer("POST", STOP, errorReply(ApiError.notFound("Conversation x was not found.")));
    answerTurn(async function* (turn) {
      yield started(turn);
      await finish.promise;
      yield done(turn, "All of it");
    });
    const sending = actions.send(CONVERSATION, [{ text: "Go" }]);
    await vi.waitFor(() => expect(store.getState().inflight?.phase).toBe("streaming"));

    actions.stop();
    await vi.waitFor(() =>
      expect(store.getState().notice?.text).toMatch(
        /^Could not stop the answer: Conversation x was not found/,
      ),
    );
    expect(store.getState().inflight?.stopping).toBe(false);
    finish.resolve();
    await sending;
  });
});

describe("reattach", () => {
  const prompt = message("prompt-one", "user", null, "Tell me");
  const answer = { ...message("answer-one", "model", "prompt-one", "Part"), streaming: true };

  it("joins an answer the server is generating from its snapshot and shows it to its end", async () => {
    const { store, actions, stored } = page([prompt, answer]);
    const more = deferred();
    server.answer("GET", ATTACH, (request) =>
      turnStreamResponse(
        (async function* () {
          yield {
            snapshot: { ...answer, content: { role: "model", parts: [{ text: "Partial ans" }] } },
          };
          await more.promise;
          yield chunk("wer");
          yield done(
            { parentId: "prompt-one", answerId: "answer-one", settings: SETTINGS },
            "Partial answer",
          );
        })(),
        request.signal,
      ),
    );
    const attaching = actions.attach(CONVERSATION, "answer-one");
    expect(store.getState().inflight).toMatchObject({
      messageId: "answer-one",
      phase: "streaming",
    });
    await vi.waitFor(() => expect(inflightText(store)).toBe("Partial ans"));
    more.resolve();
    await attaching;

    expect(server.made("GET", ATTACH).map((request) => request.path)).toEqual([
      `/api/conversations/${CONVERSATION}/turns/answer-one`,
    ]);
    expect(textOf(stored("answer-one"))).toBe("Partial answer");
    expect(stored("answer-one")?.streaming).toBeUndefined();
    expect(store.getState().inflight).toBeNull();
  });

  it("an answer the server no longer has (404) is left to what is stored, without asking again", async () => {
    const { store, actions } = page([prompt, answer]);
    server.answer("GET", ATTACH, errorReply(ApiError.notFound("Answer answer-one was not found.")));
    await actions.attach(CONVERSATION, "answer-one");
    expect(server.made("GET", ATTACH)).toHaveLength(1);
    expect(store.getState().inflight).toBeNull();
  });
});

describe("retry", () => {
  it("a send that did not reach the server is sent again with the same ids, and answered once", async () => {
    const { actions, conversation } = page([]);
    networkFailure();
    answerTurn(function* (turn) {
      yield started(turn);
      yield done(turn, "Answered");
    });
    await actions.send(CONVERSATION, [{ text: "Hello" }]);

    const [first, second] = server.made("POST", TURNS).map((request) => request.body as StartTurn);
    expect(second).toEqual(first);
    expect(conversation().messages.map((item) => [item.role, textOf(item)])).toEqual([
      ["user", "Hello"],
      ["model", "Answered"],
    ]);
  });

  it("a turn never sent says so, gives the prompt back, and Retry sends the same turn", async () => {
    const { store, actions, conversation, stored } = page([]);
    for (let attempt = 0; attempt < 4; attempt++) networkFailure();
    await actions.send(CONVERSATION, [{ text: "Hello there" }]);

    const sent = server.made("POST", TURNS).map((request) => request.body as StartTurn);
    expect(sent).toHaveLength(4);
    const turn = sent[0]!;
    expect(new Set(sent.map((item) => JSON.stringify(item))).size).toBe(1);
    expect(stored(turn.answerId)?.error?.message).toBe(
      "Could not reach the studio server: fetch failed. The prompt was not sent.",
    );
    expect(actions.isUnsent(turn.answerId)).toBe(true);
    expect(store.getState().drafts[CONVERSATION]).toBe("Hello there");
    expect(store.getState().inflight).toBeNull();

    answerTurn(function* (again) {
      yield started(again);
      yield done(again, "At last");
    });
    await actions.regenerate(CONVERSATION, turn.answerId);
    const retried = server.made("POST", TURNS)[4]!.body as StartTurn;
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
    const { actions, stored } = page([]);
    server.answer(
      "POST",
      TURNS,
      errorReply(new ApiError(400, "INVALID_ARGUMENT", "settings.model: unknown model")),
    );
    await actions.send(CONVERSATION, [{ text: "Hi" }]);
    const [request] = server.made("POST", TURNS);
    const turn = request!.body as StartTurn;
    expect(server.made("POST", TURNS)).toHaveLength(1);
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
    const { actions, conversation, stored } = page([prompt, answer]);
    answerTurn(function* (turn) {
      yield started(turn);
      yield chunk("Second");
      yield done(turn, "Second answer");
    });
    await actions.regenerate(CONVERSATION, "answer-one");

    const turn = server.made("POST", TURNS)[0]!.body as StartTurn;
    expect(turn.parentId).toBe("prompt-one");
    expect(turn.prompt).toBeUndefined();
    expect(turn.answerId).not.toBe("answer-one");
    expect(textOf(stored("answer-one"))).toBe("First answer");
    expect(stored(turn.answerId)?.parentId).toBe("prompt-one");
    expect(currentLeaf(conversation())?.id).toBe(turn.answerId);
  });

  it("edit adds a new version of the prompt with its own answer; switching back shows the old branch", async () => {
    const { actions, conversation, stored } = page([prompt, answer]);
    answerTurn(function* (turn) {
      yield started(turn);
      yield done(turn, "Answer to the edit");
    });
    await actions.edit(CONVERSATION, "prompt-one", "Better question");

    const turn = server.made("POST", TURNS)[0]!.body as StartTurn;
    expect(turn.parentId).toBeNull();
    expect(turn.prompt?.id).not.toBe("prompt-one");
    expect(turn.prompt?.content.parts).toEqual([{ text: "Better question" }]);
    expect(conversation().selectedRootId).toBe(turn.prompt?.id);
    expect(currentLeaf(conversation())?.id).toBe(turn.answerId);
    expect(textOf(stored("prompt-one"))).toBe("Question");

    server.answer("POST", /\/selection$/, jsonReply({ id: CONVERSATION, updatedAt: AFTER }));
    actions.switchVersion(CONVERSATION, "prompt-one");
    expect(currentLeaf(conversation())?.id).toBe("answer-one");
    await vi.waitFor(() => expect(conversation().updatedAt).toBe(AFTER));
    expect(server.made("POST", /\/selection$/)[0]?.body).toEqual({ messageId: "prompt-one" });
  });
});

describe("failure mid-stream", () => {
  it.each([
    ["the connection drops", DROP],
    ["the stream ends with an error event", "error-event"],
  ] as const)(
    "%s after the server has the turn: the page joins the answer again, it does not send it again",
    async (_case, failure) => {
      const { store, actions, stored } = page([]);
      answerTurn(async function* (turn) {
        yield started(turn);
        yield chunk("Hal");
        if (failure === DROP) yield DROP;
        else throw new ApiError(503, "UNAVAILABLE", "The relay went away.");
      });
      server.answer("GET", ATTACH, (request) => {
        const turn = server.made("POST", TURNS)[0]!.body as StartTurn;
        return turnStreamResponse(
          [
            {
              snapshot: {
                ...message(turn.answerId, "model", turn.prompt!.id, "Hal"),
                streaming: true,
              },
            },
            chunk("f"),
            done(turn, "Half"),
          ],
          request.signal,
        );
      });
      await actions.send(CONVERSATION, [{ text: "Go" }]);

      const turn = server.made("POST", TURNS)[0]!.body as StartTurn;
      expect(server.made("POST", TURNS)).toHaveLength(1);
      expect(server.made("GET", ATTACH)[0]?.path).toBe(
        `/api/conversations/${CONVERSATION}/turns/${turn.answerId}`,
      );
      expect(textOf(stored(turn.answerId))).toBe("Half");
      expect(store.getState().inflight).toBeNull();
    },
  );

  it("an answer that failed on the server ends with its error, kept in the raw exchange", async () => {
    const { store, actions, stored } = page([]);
    const error = {
      code: 429,
      message: "Resource has been exhausted.",
      status: "RESOURCE_EXHAUSTED",
    };
    answerTurn(function* (turn) {
      yield started(turn);
      yield chunk("Beg");
      yield done(turn, "Beg", { error });
    });
    await actions.send(CONVERSATION, [{ text: "Go" }]);

    const turn = server.made("POST", TURNS)[0]!.body as StartTurn;
    expect(stored(turn.answerId)?.error).toEqual(error);
    expect(store.getState().inflight).toBeNull();
    expect(JSON.parse(store.getState().traces[turn.answerId]!.errorBody!)).toEqual({ error });
  });
});

function jsonResponseOf(body: unknown): Promise<Response> {
  return jsonReply(body)({
    method: "POST",
    path: "",
    body: undefined,
    signal: new AbortController().signal,
  }) as Promise<Response>;
}
