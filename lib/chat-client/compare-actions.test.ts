import { describe, expect, it, vi } from "vitest";
import type { Conversation } from "@/lib/studio/conversation-schema";
import { currentLeaf } from "@/lib/studio/conversation-tree";
import { conversationKeys } from "@/lib/studio/query-keys";
import {
  AFTER,
  answerTurn,
  chatPage,
  chunk,
  CONVERSATION,
  done,
  message,
  scriptedServerPerTest,
  SETTINGS,
  sentTurns,
  started,
  textOf,
} from "@/lib/testing/chat-page";
import { DROP, jsonReply } from "@/lib/testing/scripted-studio-server";
import { createCompareActions } from "./compare-actions";
import { createCompareStore } from "./compare-state";

/** Compare mode against a scripted turn stream: one prompt, one turn per pane, each shown apart. */

const server = scriptedServerPerTest();
const OTHER_MODEL = "gemini-2.5-pro";

function comparePage() {
  const page = chatPage([message("prompt-one", "user", null, "Earlier")]);
  const store = createCompareStore();
  store.getState().openCompare(SETTINGS, 2);
  const [first, second] = store.getState().panes;
  store.getState().setPaneSettings(second!.key, { ...SETTINGS, model: OTHER_MODEL });
  const actions = createCompareActions({
    store,
    queryClient: page.queryClient,
    chat: page.actions,
    navigate: () => {},
  });
  const run = (key: string) => store.getState().panes.find((pane) => pane.key === key)?.run;
  return { ...page, compare: store, compareActions: actions, keys: [first!.key, second!.key], run };
}

describe("compare", () => {
  it("sends the prompt once per pane, each with its own answer and settings, and shows each apart", async () => {
    const { compareActions, keys, run } = comparePage();
    for (let pane = 0; pane < 2; pane++)
      answerTurn(server(), function* (turn) {
        yield started(turn);
        yield chunk(`from ${turn.settings.model}`);
        yield done(turn, `from ${turn.settings.model}`);
      });
    await compareActions.send(CONVERSATION, [{ text: "Which is better?" }]);

    const [first, second] = sentTurns(server());
    expect(first!.prompt).toEqual(second!.prompt);
    expect(first!.parentId).toBe("prompt-one");
    expect(first!.answerId).not.toBe(second!.answerId);
    expect([first!.settings.model, second!.settings.model]).toEqual([SETTINGS.model, OTHER_MODEL]);
    expect(run(keys[0]!)).toMatchObject({ status: "done", answerId: first!.answerId });
    expect(run(keys[1]!)).toMatchObject({ status: "done", answerId: second!.answerId });
    expect(textOf(run(keys[1]!)?.answer)).toBe(`from ${OTHER_MODEL}`);
    expect(run(keys[0]!)?.firstTokenMs).toBeGreaterThanOrEqual(0);
  });

  it("a pane whose stream breaks says why; the other pane's answer stands", async () => {
    const { compareActions, keys, run } = comparePage();
    answerTurn(server(), function* (turn) {
      yield started(turn);
      yield DROP;
    });
    answerTurn(server(), function* (turn) {
      yield started(turn);
      yield done(turn, "whole");
    });
    await compareActions.send(CONVERSATION, [{ text: "Go" }]);

    expect(run(keys[0]!)).toMatchObject({ status: "failed" });
    expect(run(keys[0]!)?.error).toMatch(/^Could not reach the studio server: /);
    expect(run(keys[1]!)).toMatchObject({ status: "done" });
  });

  it("picking a pane shows its answer in the conversation and keeps its settings", async () => {
    const { compare, compareActions, keys, run, conversation, store, queryClient } = comparePage();
    for (let pane = 0; pane < 2; pane++)
      answerTurn(server(), function* (turn) {
        yield started(turn);
        yield done(turn, turn.settings.model);
      });
    await compareActions.send(CONVERSATION, [{ text: "Go" }]);
    // The page reloads the conversation once the panes are done: it holds what they stored.
    const turns = sentTurns(server());
    queryClient.setQueryData<Conversation>(conversationKeys.detail(CONVERSATION), {
      ...conversation(),
      messages: [
        ...conversation().messages,
        { ...turns[0]!.prompt!, role: "user", parentId: "prompt-one" },
        ...turns.map((turn) => message(turn.answerId, "model", turn.prompt!.id, "answer")),
      ],
    });
    server().answer("POST", /\/selection$/, jsonReply({ id: CONVERSATION, updatedAt: AFTER }));
    server().answer("PATCH", /^\/api\/conversations\/[\w-]+$/, (request) =>
      jsonReply({
        id: CONVERSATION,
        updatedAt: AFTER,
        settings: (request.body as { settings: unknown }).settings,
      })(request),
    );

    compareActions.pick(keys[1]!);
    expect(currentLeaf(conversation())?.id).toBe(run(keys[1]!)?.answerId);
    expect(compare.getState().open).toBe(false);
    expect(store.getState().settingsDrafts[CONVERSATION]?.model).toBe(OTHER_MODEL);
    await vi.waitFor(() => expect(server().made("PATCH", /./)).toHaveLength(1));
    expect(server().made("PATCH", /./)[0]?.body).toMatchObject({
      settings: { model: OTHER_MODEL },
    });
  });
});
