/**
 * Bodies of the studio-only `/api/conversations` endpoints, beside their routes. The handler
 * validates with these; the browser uses the inferred types. Wire objects (Content,
 * Candidate, usage...) are stored as the API sent them, so they are checked only for shape.
 * Safe in the browser.
 */
import { z } from "zod";
import type {
  Part,
  Candidate,
  GenerationConfig,
  PromptFeedback,
  SafetySetting,
  Tool,
  ToolConfig,
  UsageMetadata,
} from "@/lib/gemini/types";

/**
 * A wire object stored as the API sent it (a part, a candidate, a generation config): checked
 * here only for being an object, typed as the wire type; its fields are the service's (or the
 * engine's) to check when it is used.
 */
function wireObject<T extends object>() {
  return z.custom<T>(
    (value) => typeof value === "object" && value !== null && !Array.isArray(value),
    "must be an object",
  );
}

export const partSchema = wireObject<Part>();
export const contentSchema = z.looseObject({
  role: z.string().max(32).optional(),
  parts: z.array(partSchema).max(1000),
});

/** A safety setting; a category or threshold the service adds later is kept as sent. */
const safetySettingSchema = z
  .object({ category: z.string().max(64), threshold: z.string().max(64) })
  .transform((setting) => setting as SafetySetting);

export const conversationSettingsSchema = z.object({
  model: z.string().min(1).max(200),
  systemInstruction: z.string().max(1_000_000).default(""),
  generationConfig: wireObject<GenerationConfig>().default({}),
  safetySettings: z.array(safetySettingSchema).max(20).default([]),
  tools: z.array(wireObject<Tool>()).max(20).optional(),
  toolConfig: wireObject<ToolConfig>().optional(),
  /** `cachedContents/{id}` used as context of every turn. */
  cachedContent: z
    .string()
    .regex(/^cachedContents\/[A-Za-z0-9_-]+$/, "cachedContent must be cachedContents/{id}")
    .optional(),
});

/** The settings of one conversation, saved with it and snapshotted on each answer. */
export type ConversationSettings = z.infer<typeof conversationSettingsSchema>;

export const messageErrorSchema = z.object({
  code: z.number().int(),
  message: z.string().max(20_000),
  status: z.string().max(64),
  /** When a retry may be sent (the error's RetryInfo, as a moment). */
  retryAt: z.string().max(40).optional(),
});

/** Ids the browser makes for conversations and messages (URL-safe, so they travel in paths). */
export const messageIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "message ids are 1–64 letters, digits, '-' or '_'");
export const conversationIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{12,64}$/, "conversation ids are 12–64 letters, digits, '-' or '_'");

/** A markup tag (`<script>`, `</b>`, `<!-- -->`): titles are plain text and never hold one. */
const MARKUP_TAG = /<[/!]?[A-Za-z!][^<>]{0,200}>/;

/** A title: plain text of 1–200 characters, no markup tags. */
export const titleSchema = z
  .string()
  .trim()
  .min(1, "title must not be empty")
  .max(200)
  .refine((title) => !MARKUP_TAG.test(title), "title must be plain text, without markup tags");

export const attachmentRecordSchema = z.strictObject({
  /** Index of the part of the prompt's content it describes. */
  part: z.number().int().min(0).max(999),
  displayName: z.string().max(512),
  mimeType: z.string().max(255),
  /** `files/{id}` of an uploaded file; absent for inline data. */
  name: z
    .string()
    .regex(/^files\/[A-Za-z0-9_-]{1,64}$/, "name must be files/{id}")
    .optional(),
  sizeBytes: z.number().int().min(0).max(1e13).optional(),
  pageCount: z.number().int().min(0).max(1_000_000).optional(),
  durationSeconds: z.number().min(0).max(1e7).optional(),
  /** A small data URL of an image, made by the browser when it was sent (uploaded bytes cannot be read back). */
  thumbnail: z
    .string()
    .max(64 * 1024)
    .regex(
      /^data:image\/(?:jpeg|png|webp);base64,[A-Za-z0-9+/]+={0,2}$/,
      "thumbnail must be a base64 data URL of a JPEG, PNG or WebP image",
    )
    .optional(),
  /** When an uploaded file expires (the service keeps files 48 hours). */
  expirationTime: z.string().max(40).optional(),
});

/** The identity of one attachment of a prompt: what the transcript shows for its part. */
export type AttachmentRecord = z.infer<typeof attachmentRecordSchema>;

export const storedMessageSchema = z.object({
  id: messageIdSchema,
  role: z.enum(["user", "model"]),
  content: contentSchema,
  candidates: z.array(wireObject<Candidate>()).max(8).optional(),
  /** Which candidate the person chose; its content is the one sent back as history. */
  selectedCandidate: z.number().int().min(0).max(7).optional(),
  promptFeedback: wireObject<PromptFeedback>().optional(),
  usageMetadata: wireObject<UsageMetadata>().optional(),
  modelVersion: z.string().max(200).optional(),
  responseId: z.string().max(200).optional(),
  settings: conversationSettingsSchema.optional(),
  error: messageErrorSchema.optional(),
  /** The person stopped the stream: the content is partial. */
  stopped: z.boolean().optional(),
  /** Milliseconds from sending to the first answer token and to the end, as this studio saw them. */
  timing: z
    .object({
      firstTokenMs: z.number().min(0).max(1e9).optional(),
      totalMs: z.number().min(0).max(1e9),
    })
    .optional(),
  /** The server went away before the answer finished: the content is partial. */
  interrupted: z.boolean().optional(),
  /** What was attached to a prompt, part by part, so the transcript shows it after a reload. */
  attachments: z.array(attachmentRecordSchema).max(1000).optional(),
  createdAt: z.string().max(40).optional(),
});

/**
 * One turn as stored: the wire Content (what goes back into history), and for answers the
 * candidates, usage, feedback, the settings in force and how it ended. A conversation is a
 * tree of them: an edit or a regeneration is a sibling (same parent), never a replacement.
 */
export type StoredMessage = z.infer<typeof storedMessageSchema> & {
  /** The message this one follows; null for a first message. Set by the server. */
  parentId?: string | null;
  /** Which reply to this message is shown: the branch below it chosen last. Set by the server. */
  selectedChildId?: string;
  /** The server is still generating this answer; its content is what has arrived so far. */
  streaming?: boolean;
};

export const createConversationSchema = z.strictObject({
  /** Made by the browser, so a send repeated after a lost answer finds the same conversation. */
  id: conversationIdSchema.optional(),
  title: titleSchema.optional(),
  settings: conversationSettingsSchema,
});
export type CreateConversation = z.input<typeof createConversationSchema>;

export const updateConversationSchema = z.strictObject({
  title: titleSchema.optional(),
  settings: conversationSettingsSchema.optional(),
});
export type UpdateConversation = z.input<typeof updateConversationSchema>;

export const saveMessagesSchema = z.strictObject({
  /**
   * Where new messages go: under this message (null: as a first message, beside any other);
   * absent: after the last message of the branch shown. Given messages whose id exists replace
   * it in place; the others follow one another in order. Nothing is ever dropped: an earlier
   * reply to the same message stays as a sibling.
   */
  after: messageIdSchema.nullable().optional(),
  messages: z.array(storedMessageSchema).max(100),
});
export type SaveMessages = z.input<typeof saveMessagesSchema>;

export const selectMessageSchema = z.strictObject({
  /** The message to show: its branch becomes the one shown, down to where it was left. */
  messageId: messageIdSchema,
});

export const startTurnSchema = z.strictObject({
  /** The message the new prompt follows (null: a first message); for a regeneration, the prompt answered. */
  parentId: messageIdSchema.nullable(),
  /** The new prompt; absent to regenerate the answer to `parentId`. */
  prompt: z
    .strictObject({
      id: messageIdSchema,
      content: contentSchema,
      attachments: z.array(attachmentRecordSchema).max(1000).optional(),
    })
    .optional(),
  /** Id of the answer, made by the browser: the same turn sent twice is one turn. */
  answerId: messageIdSchema,
  settings: conversationSettingsSchema,
  /** Creates the conversation with this id when it does not exist yet (the first send of a new chat). */
  create: z.strictObject({ title: titleSchema.optional() }).optional(),
});
export type StartTurn = z.infer<typeof startTurnSchema>;

export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

/** A conversation whose messages match a search, with the best matching passage. */
export interface ConversationSearchResult extends ConversationSummary {
  /**
   * A passage of a matching message with the matched words between SEARCH_MARK_START and
   * SEARCH_MARK_END; absent when only the title matched.
   */
  match?: string;
  /** The message the passage is of: the chat opens at it and marks the words. */
  matchMessageId?: string;
}

/** Markers around matched words in a search passage (private-use characters, never in stored text). */
export const SEARCH_MARK_START = "\uE000";
export const SEARCH_MARK_END = "\uE001";

/** A conversation without its messages: what a rename or a settings change answers. */
export interface ConversationHead extends ConversationSummary {
  settings: ConversationSettings;
  /** Which first message is shown (its branch); absent before the first message. */
  selectedRootId?: string;
}

export interface Conversation extends ConversationHead {
  /** Every message of every branch, oldest first; `parentId` makes the tree. */
  messages: StoredMessage[];
}

export interface ConversationList {
  conversations: ConversationSearchResult[];
}
