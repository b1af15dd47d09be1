import "server-only";
import { conversationIdSchema, startTurnSchema } from "@/lib/studio/conversation-schema";
import { ApiError } from "@/lib/gemini/api-error";
import { turnRunner } from "../wiring/active-turn-runner";
import { jsonResponse } from "../http/responses";
import { eventStreamResponse } from "../http/sse-response";
import { CONVERSATION_BODY_BYTES, conversationRoom } from "./conversation-requests";
import { invalid, studioEndpoint } from "./studio-endpoint";

/**
 * `/api/conversations/{id}/turns`: a turn runs on the server (lib/server/chat/turn-runner.ts)
 * and its events stream as SSE to whichever page reads them; a page can join a live answer or
 * stop it.
 */

/**
 * Starts a turn (a prompt and its answer, or another answer to a prompt) and answers its
 * events as SSE. The answer is generated on the server whether or not this response is read
 * to the end; the same turn sent again (same answer id) returns the one already started.
 */
const startTurn = studioEndpoint(async ({ request, caller, body }, id: string) => {
  const input = await body(startTurnSchema, CONVERSATION_BODY_BYTES);
  if (input.create && !conversationIdSchema.safeParse(id).success)
    throw invalid([
      {
        field: "conversationId",
        description: "conversation ids are 12–64 letters, digits, '-' or '_'",
      },
    ]);
  if (input.prompt && input.prompt.content.parts.length === 0)
    throw invalid([
      { field: "prompt.content.parts", description: "a prompt needs at least one part" },
    ]);
  const events = await (
    await turnRunner()
  ).start(caller, id, input, request.signal, conversationRoom(input));
  return eventStreamResponse(events, { signal: request.signal });
});

/** The events of an answer from now on (a reload or another page joining a live answer). */
const attachTurn = studioEndpoint(async ({ request, caller }, id: string, answerId: string) => {
  const events = await (await turnRunner()).attach(caller, id, answerId, request.signal);
  return eventStreamResponse(events, { signal: request.signal });
});

/** Stops an answer being generated; `{"stopped": false}` when it had already ended. */
const stopTurn = studioEndpoint(async ({ caller }, id: string, answerId: string) =>
  jsonResponse({ stopped: await (await turnRunner()).stop(caller, id, answerId) }),
);

/** The raw exchange stored with an answer, for the inspector on any page (404 when none is kept). */
const turnTrace = studioEndpoint(
  async ({ caller, stores: { conversations } }, id: string, answerId: string) => {
    const trace = await conversations.readAnswerTrace(caller.ownerId, id, answerId);
    if (trace === null)
      throw ApiError.notFound(
        `No raw exchange is kept for answer ${answerId} of conversation ${id}.`,
      );
    return new Response(trace, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "private, no-store",
      },
    });
  },
);

/** The turn handlers of the route files under app/api/conversations. */
export const turnHandlers = { startTurn, attachTurn, stopTurn, turnTrace };
