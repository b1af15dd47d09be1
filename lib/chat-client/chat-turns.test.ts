import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import type { StartTurn } from "@/lib/studio/conversation-schema";
import {
  answerTurn,
  ATTACH,
  chatPage,
  chunk,
  CONVERSATION,
  deferred,
  done,
  inflightText,
  message,
  scriptedServerPerTest,
  SETTINGS,
  started,
  STOP,
  textOf,
  TURNS,
} from "@/lib/testing/chat-page";
import {
  DROP,
  errorReply,
  jsonReply,
  turnStreamResponse,
} from "@/lib/testing/scripted-studio-server";

/**
 * What the chat page does, against a scripted turn stream: the real actions, turns, stream
 * reader, revealer, store and query cache, with the network answered by the route handlers'
 * own writers (lib/testing/scripted-studio-server.ts). Stop, reattach, a stream that breaks.
 */

const server = scriptedServerPerTest();

describe("stop", () => {
  it("a stop asked while the turn is on its way is sent once the server has the turn", async () => {
    const { store, actions, stored } = chatPage([]);
    const acknowledge = deferred();
    const stopped = deferred();
    server().answer("POST", STOP, (request) => {
      stopped.resolve();
      return jsonReply({ stopped: true })(request);
    });
    answerTurn(server(), async function* (turn) {
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
    expect(server().made("POST", STOP)).toHaveLength(0);
    acknowledge.resolve();
    await sending;

    const turn = server().made("POST", TURNS)[0]!.body as StartTurn;
    expect(
      server()
        .made("POST", STOP)
        .map((request) => request.path),
    ).toEqual([`/api/conversations/${CONVERSATION}/turns/${turn.answerId}/stop`]);
    expect(stored(turn.answerId)).toMatchObject({ stopped: true });
    expect(textOf(stored(turn.answerId))).toBe("Partial");
    expect(store.getState().inflight).toBeNull();
  });

  it("a stop the server refuses leaves the answer running and says why", async () => {
    const { store, actions } = chatPage([]);
    const finish = deferred();
    server().answer("POST", STOP, errorReply(ApiError.notFound("Conversation x was not found.")));
    answerTurn(server(), async function* (turn) {
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
    const { store, actions, stored } = chatPage([prompt, answer]);
    const more = deferred();
    server().answer("GET", ATTACH, (request) =>
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

    expect(
      server()
        .made("GET", ATTACH)
        .map((request) => request.path),
    ).toEqual([`/api/conversations/${CONVERSATION}/turns/answer-one`]);
    expect(textOf(stored("answer-one"))).toBe("Partial answer");
    expect(stored("answer-one")?.streaming).toBeUndefined();
    expect(store.getState().inflight).toBeNull();
  });

  it("an answer the server no longer has (404) is left to what is stored, without asking again", async () => {
    const { store, actions } = chatPage([prompt, answer]);
    server().answer(
      "GET",
      ATTACH,
      errorReply(ApiError.notFound("Answer answer-one was not found.")),
    );
    await actions.attach(CONVERSATION, "answer-one");
    expect(server().made("GET", ATTACH)).toHaveLength(1);
    expect(store.getState().inflight).toBeNull();
  });
});

describe("failure mid-stream", () => {
  it.each([
    ["the connection drops", DROP],
    ["the stream ends with an error event", "error-event"],
  ] as const)(
    "%s after the server has the turn: the page joins the answer again, it does not send it again",
    async (_case, failure) => {
      const { store, actions, stored } = chatPage([]);
      answerTurn(server(), async function* (turn) {
        yield started(turn);
        yield chunk("Hal");
        if (failure === DROP) yield DROP;
        else throw new ApiError(503, "UNAVAILABLE", "The relay went away.");
      });
      server().answer("GET", ATTACH, (request) => {
        const turn = server().made("POST", TURNS)[0]!.body as StartTurn;
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

      const turn = server().made("POST", TURNS)[0]!.body as StartTurn;
      expect(server().made("POST", TURNS)).toHaveLength(1);
      expect(server().made("GET", ATTACH)[0]?.path).toBe(
        `/api/conversations/${CONVERSATION}/turns/${turn.answerId}`,
      );
      expect(textOf(stored(turn.answerId))).toBe("Half");
      expect(store.getState().inflight).toBeNull();
    },
  );

  it("an answer that failed on the server ends with its error, kept in the raw exchange", async () => {
    const { store, actions, stored } = chatPage([]);
    const error = {
      code: 429,
      message: "Resource has been exhausted.",
      status: "RESOURCE_EXHAUSTED",
    };
    answerTurn(server(), function* (turn) {
      yield started(turn);
      yield chunk("Beg");
      yield done(turn, "Beg", { error });
    });
    await actions.send(CONVERSATION, [{ text: "Go" }]);

    const turn = server().made("POST", TURNS)[0]!.body as StartTurn;
    expect(stored(turn.answerId)?.error).toEqual(error);
    expect(store.getState().inflight).toBeNull();
    expect(JSON.parse(store.getState().traces[turn.answerId]!.errorBody!)).toEqual({ error });
  });
});
