import type { QueryClient } from "@tanstack/react-query";
import type { StoreApi } from "zustand";
import { ApiError } from "@/lib/gemini/api-error";
import { isAbortError, streamGenerateContentPath } from "@/lib/gemini/client/sse-client";
import { recordTrace, type TraceRecorder } from "@/lib/studio/answer-trace";
import { messageErrorOf, type MessageError } from "@/lib/studio/message-error";
import { typedText } from "@/lib/studio/message-text";
import type {
  ConversationSettings,
  StartTurn,
  StoredMessage,
} from "@/lib/studio/conversation-schema";
import { responseOfAnswer } from "@/lib/studio/turn-events";
import type { ChatStore } from "@/lib/stores/chat-store";
import type { ConversationCache } from "./chat-conversation-cache";
import {
  delay,
  followAnswer,
  showTurnEvents,
  type StartedTurn,
  type TurnEventsContext,
} from "./chat-turn-events";
import { createRevealer, type ResponseRevealer } from "./response-revealer";
import { conversationKeys, startTurnRequest, stopTurnRequest } from "./use-conversations";

/** Sends of one turn before it is shown as not sent (the same ids each time: the server keeps one). */
const SEND_ATTEMPTS = 4;

/** An error as an answer's error (and a notice's words); anything but the server's error is a failure to reach it. */
export function errorSummary(error: unknown): MessageError {
  if (error instanceof ApiError) return messageErrorOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 0,
    message: `Could not reach the studio server: ${message}`,
    status: "UNAVAILABLE",
  };
}

function placeholderAnswer(
  id: string,
  parentId: string | null,
  settings: ConversationSettings,
): StoredMessage {
  return {
    id,
    role: "model",
    parentId,
    content: { role: "model", parts: [] },
    settings,
    streaming: true,
  };
}

export interface ChatTurnsContext {
  store: StoreApi<ChatStore>;
  queryClient: QueryClient;
  conversations: ConversationCache;
  settingsOf(conversationId: string): ConversationSettings;
}

/** A turn the server never acknowledged: Retry sends it again as it was. */
export interface UnsentTurn {
  conversationId: string;
  turn: StartTurn;
}

export interface ChatTurns {
  /** Sends a turn and shows its answer as it comes; `prompt` is shown at once when the turn adds one. */
  run(conversationId: string, turn: StartTurn, prompt?: StoredMessage): Promise<void>;
  /** Shows an answer the server is generating (after a reload, or from another page). */
  attach(conversationId: string, answerId: string): Promise<void>;
  stop(): void;
  unsent(answerId: string): UnsentTurn | undefined;
}

interface TurnAcknowledgement {
  recorder(): TraceRecorder | null;
  /** Whether another page changed the conversation since this one loaded it. */
  stale(): boolean;
  onResponse(response: Response): void;
  onTurn(started: StartedTurn): void;
}

/**
 * What the page does once the server has the turn: records the raw exchange for the inspector
 * (the request the server sent for the answer, this turn's response, each chunk relayed as it
 * arrived), shows the prompt and the answer streaming, and notes whether another page changed
 * the conversation since this one loaded it.
 */
function turnAcknowledgement(
  { store, queryClient, conversations }: ChatTurnsContext,
  conversationId: string,
  turn: StartTurn,
  previous: string | undefined,
): TurnAcknowledgement {
  const answerId = turn.answerId;
  let recorder: TraceRecorder | null = null;
  let turnResponse: Response | null = null;
  let stale = false;
  return {
    recorder: () => recorder,
    stale: () => stale,
    onResponse: (response: Response) => (turnResponse = response),
    onTurn(started: StartedTurn) {
      if (started.request && !recorder) {
        recorder = recordTrace({
          model: turn.settings.model,
          url: streamGenerateContentPath(turn.settings.model),
          request: started.request,
        });
        if (turnResponse) recorder.observer.onResponse?.(turnResponse);
        store.getState().keepTrace(answerId, recorder.trace());
      }
      // A stop asked while the turn was on its way is sent now that the server has it.
      if (store.getState().inflight?.stopping) requestStop(store, conversationId, answerId);
      store.getState().setAnswerPhase(answerId, { phase: "streaming" });
      conversations.putMessages(conversationId, [
        ...(started.prompt ? [started.prompt] : []),
        { ...started.answer, streaming: true },
      ]);
      // Another page changed the conversation since this one loaded it: reload it when done.
      if (previous && started.previousUpdatedAt !== previous) stale = true;
      conversations.update(conversationId, (conversation) => ({
        ...conversation,
        title: started.title,
        updatedAt: started.updatedAt,
      }));
      void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
    },
  };
}

function requestStop(store: StoreApi<ChatStore>, conversationId: string, answerId: string): void {
  stopTurnRequest(conversationId, answerId).catch((error: unknown) => {
    store.getState().setAnswerPhase(answerId, { stopping: false });
    store.getState().setNotice({
      kind: "error",
      text: `Could not stop the answer: ${errorSummary(error).message}`,
    });
  });
}

/**
 * The page's side of a turn: the answer is generated by the server, and the page shows its
 * events as they come, sends a turn again until the server has it (the same ids each time),
 * reconnects to a stream that broke, and can leave, reload or join again at any time. A
 * factory whose closure is its state: the turns not sent yet, shared by its few functions.
 */
export function createChatTurns(context: ChatTurnsContext): ChatTurns {
  const { store, queryClient, conversations } = context;
  const events: TurnEventsContext = { store, queryClient, conversations };
  const unsent = new Map<string, UnsentTurn>();

  async function run(conversationId: string, turn: StartTurn, prompt?: StoredMessage) {
    const controller = new AbortController();
    const answerId = turn.answerId;
    const previous = conversations.get(conversationId)?.updatedAt;
    const promptId = prompt?.id ?? turn.parentId!;
    conversations.putMessages(conversationId, [
      ...(prompt ? [prompt] : []),
      placeholderAnswer(answerId, promptId, turn.settings),
    ]);
    store.getState().beginAnswer(
      {
        conversationId,
        messageId: answerId,
        promptMessageId: promptId,
        settings: turn.settings,
        startedAt: Date.now(),
        candidates: [],
        phase: "sending",
      },
      controller,
    );
    unsent.delete(answerId);
    const revealer = createRevealer((response) => store.getState().updateAnswer(response));
    const acknowledgement = turnAcknowledgement(context, conversationId, turn, previous);
    if (!(await send(conversationId, turn, controller, revealer, acknowledgement))) return;
    if (acknowledgement.stale()) {
      const answer = conversations
        .get(conversationId)
        ?.messages.find((message) => message.id === answerId);
      if (answer) void conversations.reloadKeepingBranch(conversationId, answer);
    }
    void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
  }

  /**
   * Sends the turn until the server acknowledges it (a failure before that sends it again with
   * the same ids), then shows the answer to its end. False when it was stopped or not sent.
   */
  async function send(
    conversationId: string,
    turn: StartTurn,
    controller: AbortController,
    revealer: ResponseRevealer,
    acknowledgement: TurnAcknowledgement,
  ): Promise<boolean> {
    const answerId = turn.answerId;
    let acknowledged = false;
    for (let attempt = 0; !acknowledged; attempt++) {
      try {
        const stream = await startTurnRequest(
          conversationId,
          turn,
          controller.signal,
          acknowledgement.onResponse,
        );
        if (
          await showTurnEvents(
            events,
            conversationId,
            answerId,
            stream,
            revealer,
            (started) => {
              acknowledged = true;
              acknowledgement.onTurn(started);
            },
            acknowledgement.recorder,
          )
        )
          break;
        if (acknowledged) {
          await followAnswer(events, conversationId, answerId, controller, revealer);
          break;
        }
        throw new Error("the connection closed before the studio server answered");
      } catch (error) {
        if (controller.signal.aborted || isAbortError(error)) return false;
        if (acknowledged) {
          await followAnswer(events, conversationId, answerId, controller, revealer);
          break;
        }
        if (error instanceof ApiError || attempt + 1 >= SEND_ATTEMPTS) {
          failTurn(conversationId, turn, error);
          return false;
        }
        await delay(500 * 2 ** attempt, controller.signal);
      }
    }
    return true;
  }

  /**
   * A turn that could not be sent: its answer says why, Retry sends the same turn again, and
   * what the person typed goes back into an empty prompt box, to edit or send again.
   */
  function failTurn(conversationId: string, turn: StartTurn, error: unknown) {
    const summary = errorSummary(error);
    const typed = turn.prompt ? typedText(turn.prompt) : "";
    if (typed.trim() && !store.getState().drafts[conversationId]?.trim())
      store.getState().setDraft(conversationId, typed);
    if (!(error instanceof ApiError)) unsent.set(turn.answerId, { conversationId, turn });
    const promptId = turn.prompt?.id ?? turn.parentId;
    conversations.putMessages(conversationId, [
      {
        ...placeholderAnswer(turn.answerId, promptId, turn.settings),
        streaming: undefined,
        error:
          error instanceof ApiError
            ? summary
            : { ...summary, message: `${summary.message}. The prompt was not sent.` },
      },
    ]);
    store.getState().endAnswer(turn.answerId);
  }

  async function attach(conversationId: string, answerId: string): Promise<void> {
    const state = store.getState();
    if (state.inflight?.messageId === answerId) return;
    if (state.inflight?.phase === "sending") return;
    const answer = conversations
      .get(conversationId)
      ?.messages.find((message) => message.id === answerId);
    if (!answer) return;
    const controller = new AbortController();
    store.getState().beginAnswer(
      {
        conversationId,
        messageId: answerId,
        promptMessageId: answer.parentId ?? "",
        settings: answer.settings ?? context.settingsOf(conversationId),
        startedAt: Date.now(),
        ...responseOfAnswer(answer),
        phase: "streaming",
      },
      controller,
    );
    const revealer = createRevealer((response) => store.getState().updateAnswer(response));
    revealer.replace(responseOfAnswer(answer));
    await followAnswer(events, conversationId, answerId, controller, revealer);
  }

  function stop(): void {
    const inflight = store.getState().inflight;
    if (!inflight || inflight.stopping) return;
    store.getState().setAnswerPhase(inflight.messageId, { stopping: true });
    // Still on its way to the server: the stop follows once the server has the turn.
    if (inflight.phase === "sending") return;
    requestStop(store, inflight.conversationId, inflight.messageId);
  }

  return { run, attach, stop, unsent: (answerId) => unsent.get(answerId) };
}
