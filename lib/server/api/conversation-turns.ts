import "server-only";
import {
  conversationIdSchema,
  startTurnSchema,
  type StartTurn,
} from "@/lib/studio/conversation-schema";
import { authenticate } from "../auth/authenticate";
import { turnRunner } from "../chat/active-turn-runner";
import { errorResponse, jsonResponse } from "../http/responses";
import { eventStreamResponse } from "../http/sse-response";
import { conversationRoom, invalid, parseBody } from "./conversation-requests";

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
async function startTurn(request: Request, id: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const input = (await parseBody(request, startTurnSchema)) as StartTurn;
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
  } catch (error) {
    return errorResponse(error);
  }
}

/** The events of an answer from now on (a reload or another page joining a live answer). */
async function attachTurn(request: Request, id: string, answerId: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const events = await (await turnRunner()).attach(caller, id, answerId, request.signal);
    return eventStreamResponse(events, { signal: request.signal });
  } catch (error) {
    return errorResponse(error);
  }
}

/** Stops an answer being generated; `{"stopped": false}` when it had already ended. */
async function stopTurn(request: Request, id: string, answerId: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    return jsonResponse({ stopped: await (await turnRunner()).stop(caller, id, answerId) });
  } catch (error) {
    return errorResponse(error);
  }
}

/** The turn handlers of the route files under app/api/conversations. */
export const turnHandlers = { startTurn, attachTurn, stopTurn };
