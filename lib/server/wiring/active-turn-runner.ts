import "server-only";
import { backend } from "./active-backend";
import { logger } from "../config/logger";
import { acquireStreamSlot } from "../http/limits";
import { dataStores } from "../persistence/database-handle";
import { recordAnswerUsage } from "../usage/answer-usage";
import { createTurnRunner, type TurnRunner } from "../chat/turn-runner";

const holder = globalThis as typeof globalThis & { genstudioTurnRunner?: Promise<TurnRunner> };

/** The process's runner of studio chat turns, over its stores and backend. */
export function turnRunner(): Promise<TurnRunner> {
  holder.genstudioTurnRunner ??= dataStores().then((stores) =>
    createTurnRunner({
      conversations: stores.conversations,
      backend,
      // A turn is a generation stream of its caller: it holds one of the caller's stream slots.
      admit: acquireStreamSlot,
      onError: (message, error) => logger.error(message, error),
      onUsage: (caller, model, usage) => recordAnswerUsage(caller, model, usage),
    }),
  );
  return holder.genstudioTurnRunner;
}
