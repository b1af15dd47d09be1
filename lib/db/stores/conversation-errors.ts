/** The store's refusals of a write, which the API turns into its errors. */

export class UnknownMessageError extends Error {
  override readonly name = "UnknownMessageError";
  constructor(readonly messageId: string) {
    super(`Message ${messageId} is not in this conversation.`);
  }
}

export class ConversationIdTakenError extends Error {
  override readonly name = "ConversationIdTakenError";
  constructor(readonly conversationId: string) {
    super(`Conversation id ${conversationId} is already taken.`);
  }
}

/** A turn that cannot be added as asked (a prompt id used elsewhere, a regeneration of no prompt). */
export class TurnConflictError extends Error {
  override readonly name = "TurnConflictError";
}

/**
 * By name, not `instanceof`: the stores are one per process (made by whichever route bundle
 * asked first), so their classes can come from another of Next's module graphs than the caller's.
 */
export function isUnknownMessageError(error: unknown): error is UnknownMessageError {
  return error instanceof Error && error.name === "UnknownMessageError";
}

export function isConversationIdTakenError(error: unknown): error is ConversationIdTakenError {
  return error instanceof Error && error.name === "ConversationIdTakenError";
}

export function isTurnConflictError(error: unknown): error is TurnConflictError {
  return error instanceof Error && error.name === "TurnConflictError";
}
