/**
 * Bodies of the studio-only `/api/conversations` endpoints, beside their routes. The handler
 * validates with these; the browser uses the inferred types. Wire objects (Content,
 * Candidate, usage...) are stored as the API sent them, so they are checked only for shape.
 * Safe in the browser.
 */
import { z } from "zod";
import type {
  Candidate,
  Content,
  GenerationConfig,
  PromptFeedback,
  SafetySetting,
  Tool,
  ToolConfig,
  UsageMetadata,
} from "@/lib/gemini/types";

const wireObject = z.looseObject({});

export const partSchema = z.looseObject({});
export const contentSchema = z.looseObject({
  role: z.string().max(32).optional(),
  parts: z.array(partSchema).max(1000),
});

export const conversationSettingsSchema = z.object({
  model: z.string().min(1).max(200),
  systemInstruction: z.string().max(1_000_000).default(""),
  generationConfig: wireObject.default({}),
  safetySettings: z
    .array(z.object({ category: z.string().max(64), threshold: z.string().max(64) }))
    .max(20)
    .default([]),
  tools: z.array(wireObject).max(20).optional(),
  toolConfig: wireObject.optional(),
  cachedContent: z
    .string()
    .regex(/^cachedContents\/[A-Za-z0-9_-]+$/, "cachedContent must be cachedContents/{id}")
    .optional(),
});

/** The settings of one conversation, saved with it and snapshotted on each answer. */
export interface ConversationSettings {
  model: string;
  systemInstruction: string;
  generationConfig: GenerationConfig;
  safetySettings: SafetySetting[];
  tools?: Tool[];
  toolConfig?: ToolConfig;
  /** `cachedContents/{id}` used as context of every turn. */
  cachedContent?: string;
}

export const messageErrorSchema = z.object({
  code: z.number().int(),
  message: z.string().max(20_000),
  status: z.string().max(64),
});

export const storedMessageSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "message ids are 1–64 letters, digits, '-' or '_'"),
  role: z.enum(["user", "model"]),
  content: contentSchema,
  candidates: z.array(wireObject).max(8).optional(),
  selectedCandidate: z.number().int().min(0).max(7).optional(),
  promptFeedback: wireObject.optional(),
  usageMetadata: wireObject.optional(),
  modelVersion: z.string().max(200).optional(),
  responseId: z.string().max(200).optional(),
  settings: conversationSettingsSchema.optional(),
  error: messageErrorSchema.optional(),
  stopped: z.boolean().optional(),
  timing: z
    .object({
      firstTokenMs: z.number().min(0).max(1e9).optional(),
      totalMs: z.number().min(0).max(1e9),
    })
    .optional(),
  createdAt: z.string().max(40).optional(),
});

/**
 * One turn as stored: the wire Content (what goes back into history), and for answers the
 * candidates, usage, feedback, the settings in force and how it ended.
 */
export interface StoredMessage {
  id: string;
  role: "user" | "model";
  content: Content;
  candidates?: Candidate[];
  /** Which candidate the person chose; its content is the one sent back as history. */
  selectedCandidate?: number;
  promptFeedback?: PromptFeedback;
  usageMetadata?: UsageMetadata;
  modelVersion?: string;
  responseId?: string;
  settings?: ConversationSettings;
  error?: { code: number; message: string; status: string };
  /** The person stopped the stream: the content is partial. */
  stopped?: boolean;
  /** Milliseconds from sending to the first answer token and to the end, as this studio saw them. */
  timing?: { firstTokenMs?: number; totalMs: number };
  createdAt?: string;
}

export const createConversationSchema = z.strictObject({
  title: z.string().trim().max(200).optional(),
  settings: conversationSettingsSchema,
});
export type CreateConversation = { title?: string; settings: ConversationSettings };

export const updateConversationSchema = z.strictObject({
  title: z.string().trim().min(1, "title must not be empty").max(200).optional(),
  settings: conversationSettingsSchema.optional(),
});
export type UpdateConversation = { title?: string; settings?: ConversationSettings };

export const saveMessagesSchema = z.strictObject({
  /**
   * Keep the messages up to and including this id and drop the later ones (edit, regenerate);
   * null drops them all; absent keeps every message. Given messages whose id is kept replace
   * it in place; the others are appended in order.
   */
  after: z.string().max(64).nullable().optional(),
  messages: z.array(storedMessageSchema).max(100),
});
export type SaveMessages = { after?: string | null; messages: StoredMessage[] };

export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

/** A conversation without its messages: what a rename or a settings change answers. */
export interface ConversationHead extends ConversationSummary {
  settings: ConversationSettings;
}

export interface Conversation extends ConversationHead {
  messages: StoredMessage[];
}

export interface ConversationList {
  conversations: ConversationSummary[];
}
