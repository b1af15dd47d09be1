import { describe, expect, it } from "vitest";
import type { ConversationSettings, StoredMessage } from "@/lib/studio/conversation-schema";
import {
  answerMessage,
  buildGenerateContentRequest,
  historyContents,
  requestContents,
} from "./chat-request";
import { defaultSettings } from "@/lib/studio/settings-model";

const user = (id: string, text: string): StoredMessage => ({
  id,
  role: "user",
  content: { role: "user", parts: [{ text }] },
});
const model = (
  id: string,
  text: string | null,
  extra: Partial<StoredMessage> = {},
): StoredMessage => ({
  id,
  role: "model",
  content: { role: "model", parts: text === null ? [] : [{ text }] },
  ...extra,
});

describe("historyContents", () => {
  it("sends every turn in order and drops prompts whose answer has no content", () => {
    const messages = [
      user("u1", "hello"),
      model("m1", "hi"),
      user("u2", "blocked prompt"),
      model("m2", null, { promptFeedback: { blockReason: "SAFETY" } }),
      user("u3", "again"),
    ];
    expect(historyContents(messages)).toEqual([
      { role: "user", parts: [{ text: "hello" }] },
      { role: "model", parts: [{ text: "hi" }] },
      { role: "user", parts: [{ text: "again" }] },
    ]);
  });

  it("uses the chosen candidate of an answer", () => {
    const answer = model("m1", "first", {
      selectedCandidate: 1,
      candidates: [
        { index: 0, content: { role: "model", parts: [{ text: "first" }] } },
        { index: 1, content: { role: "model", parts: [{ text: "second" }] } },
      ],
    });
    expect(historyContents([user("u1", "q"), answer])[1]).toEqual({
      role: "model",
      parts: [{ text: "second" }],
    });
  });
});

describe("buildGenerateContentRequest", () => {
  it("leaves out empty settings and carries the rest under their wire names", () => {
    const contents = [{ role: "user", parts: [{ text: "q" }] }];
    expect(buildGenerateContentRequest(defaultSettings(), contents)).toEqual({ contents });
    const request = buildGenerateContentRequest(
      {
        ...defaultSettings(),
        systemInstruction: "be brief",
        generationConfig: { temperature: 0.2 },
        safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }],
      },
      contents,
    );
    expect(request.systemInstruction).toEqual({ parts: [{ text: "be brief" }] });
    expect(request.generationConfig).toEqual({ temperature: 0.2 });
    expect(request.safetySettings).toHaveLength(1);
  });
});

describe("answerMessage", () => {
  it("keeps candidates, usage and how the stream ended", () => {
    const message = answerMessage(
      "a1",
      {
        candidates: [{ index: 0, content: { role: "model", parts: [{ text: "part" }] } }],
        usageMetadata: { totalTokenCount: 5 },
      },
      defaultSettings(),
      { stopped: true },
    );
    expect(message.content.parts).toEqual([{ text: "part" }]);
    expect(message.stopped).toBe(true);
    expect(message.usageMetadata?.totalTokenCount).toBe(5);
    expect(message.settings?.model).toBe("models/gemini-2.5-flash");
  });
});

describe("requestContents", () => {
  it("sends a speech-only turn its own prompt alone, and other turns the whole history", () => {
    const messages = [
      user("u1", "say hello"),
      model("m1", null, {
        content: {
          role: "model",
          parts: [{ inlineData: { mimeType: "audio/L16;codec=pcm;rate=24000", data: "AAAA" } }],
        },
      }),
      user("u2", "say goodbye"),
    ];
    const speech = {
      ...defaultSettings(),
      generationConfig: { responseModalities: ["AUDIO"] },
    } as ConversationSettings;
    expect(requestContents(speech, messages)).toEqual([
      { role: "user", parts: [{ text: "say goodbye" }] },
    ]);
    expect(requestContents(defaultSettings(), messages)).toHaveLength(3);
  });
});
