import { expect, test } from "@playwright/test";
import type { File as WireFile } from "@/lib/gemini/types";
import { ChatPage } from "./pages/chat-page";
import { expectNoSeriousViolations } from "./pages/answer-metadata";
import { FilesPage, dropFiles } from "./pages/files-page";
import { gatewayClient } from "./support/gateway";
import { GATEWAY_KEYS, gatewayServer } from "./support/servers";

/**
 * Built-in tools (issue 18): switches offered per model; the local engine runs code for real
 * (executableCode, codeExecutionResult), grounds answers in its document set (groundingMetadata)
 * and reads this studio's file URIs (urlContextMetadata); the gateway forwards the tools.
 */

async function toolSwitch(chat: ChatPage, name: RegExp) {
  await chat.openSettings();
  return chat.settings.getByRole("checkbox", { name });
}

test("code execution: the engine writes Python, runs it and answers with its result", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(200);
  await (await toolSwitch(chat, /^Code execution/)).check();
  const sent = chat.nextTurnRequest();
  await chat.send("What is 17 * 23 + 4?");
  expect((await sent).tools).toEqual([{ codeExecution: {} }]);
  await chat.waitForAnswerDone();
  const answer = chat.answerText();
  await expect(answer.locator("figure.chat-code code")).toHaveText(
    "result = 17 * 23 + 4\nprint(result)",
  );
  await expect(answer).toContainText("OUTCOME_OK: 395");
  await expect(answer).toContainText("17 * 23 + 4 = 395");
  await expectNoSeriousViolations(page);
});

test("grounding: an answer from the local document set with its sources, segments and query", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(300);
  await (await toolSwitch(chat, /^Google Search grounding/)).check();
  await chat.send("Why does the sky look blue?");
  await chat.waitForAnswerDone();
  const grounding = chat.lastAnswer().getByRole("region", { name: "Grounding" });
  await expect(grounding).toContainText("Grounded in local documents");
  await expect(grounding.locator("[data-document-uri]").first()).toHaveText(
    /^genstudio:documents\/science-and-nature\/\d+$/,
  );
  await expect(grounding.locator("[data-search-query]")).toHaveText(["sky look blue"]);
  const segments = await grounding.locator("[data-grounding-support] q").allTextContents();
  expect(segments.length).toBeGreaterThan(0);
  // Each supported segment is part of the answer, word for word.
  const response = await page.evaluate(async (id) => {
    const conversation = await (await fetch(`/api/conversations/${id}`)).json();
    return conversation.messages.at(-1).candidates[0];
  }, chat.conversationId());
  const text = response.content.parts.map((part: { text?: string }) => part.text ?? "").join("");
  for (const segment of segments) expect(text).toContain(segment);
  // The metadata is the service's googleSearch shape: supports at UTF-8 byte offsets of the
  // answer, each naming the web chunks (here the local documents) it rests on, and the query
  // the engine searched with.
  const metadata = response.groundingMetadata as {
    webSearchQueries: string[];
    groundingChunks: { web: { uri: string; title: string } }[];
    groundingSupports: {
      segment: { startIndex?: number; endIndex: number; text: string };
      groundingChunkIndices: number[];
    }[];
  };
  expect(metadata.webSearchQueries).toEqual(["sky look blue"]);
  expect(metadata.groundingSupports.length).toBe(segments.length);
  const bytes = Buffer.from(text, "utf8");
  for (const { segment, groundingChunkIndices } of metadata.groundingSupports) {
    expect(bytes.subarray(segment.startIndex ?? 0, segment.endIndex).toString("utf8")).toBe(
      segment.text,
    );
    for (const index of groundingChunkIndices)
      expect(metadata.groundingChunks[index]!.web.uri).toMatch(/^genstudio:documents\//);
  }
  await expectNoSeriousViolations(page);
});

test("URL context: this studio's file URIs are read, other URLs fail as offline", async ({
  page,
}) => {
  const files = new FilesPage(page);
  await files.open();
  const name = `harbour-notes-${Date.now()}.txt`;
  await dropFiles(files.dropZone, [
    {
      name,
      mimeType: "text/plain",
      bytes: new TextEncoder().encode(
        "The harbour master logs every ship at dawn. Tides are posted on the quay. Nets are mended on Sundays.",
      ),
    },
  ]);
  await expect(files.row(name)).toBeVisible();
  const uploaded = await page.evaluate(async (displayName) => {
    const list = await (await fetch("/v1beta/files?pageSize=100")).json();
    return (list.files as WireFile[]).find((file) => file.displayName === displayName)!;
  }, name);

  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(300);
  await (await toolSwitch(chat, /^URL context/)).check();
  await chat.send(`Summarise ${uploaded.uri} and https://unreachable.example/page please.`);
  await chat.waitForAnswerDone();
  await expect(chat.answerText()).toContainText("The harbour master logs every ship at dawn.");
  const context = chat.lastAnswer().getByRole("region", { name: "URL context" });
  await expect(context.locator("[data-url-status]")).toHaveCount(2);
  await expect(context.locator('[data-url-status="URL_RETRIEVAL_STATUS_SUCCESS"]')).toContainText(
    uploaded.uri!,
  );
  await expect(context.locator('[data-url-status="URL_RETRIEVAL_STATUS_ERROR"]')).toContainText(
    "https://unreachable.example/page",
  );
  // The answer carries the service's urlContextMetadata, one entry per URL.
  const candidate = await page.evaluate(async (id) => {
    const conversation = await (await fetch(`/api/conversations/${id}`)).json();
    return conversation.messages.at(-1).candidates[0];
  }, chat.conversationId());
  expect(candidate.urlContextMetadata).toEqual({
    urlMetadata: [
      { retrievedUrl: uploaded.uri, urlRetrievalStatus: "URL_RETRIEVAL_STATUS_SUCCESS" },
      {
        retrievedUrl: "https://unreachable.example/page",
        urlRetrievalStatus: "URL_RETRIEVAL_STATUS_ERROR",
      },
    ],
  });
  await expectNoSeriousViolations(page);
});

test("switches are offered only for the tools a model supports", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.openSettings();
  await expect(chat.settings.locator("[data-built-in-tools] input[type=checkbox]")).toHaveCount(3);
  await chat.selectSetting("Model", "models/gemma-4-31b-it");
  await expect(chat.settings.locator("[data-built-in-tools=none]")).toBeVisible();
  await chat.selectSetting("Model", "models/gemini-2.5-flash-preview-tts");
  await expect(chat.settings.locator("[data-built-in-tools=none]")).toBeVisible();
});

test("gateway mode forwards the built-in tools to the service", async () => {
  // The gateway's upstream is a local engine here, so the forwarded tool is run there.
  const ai = gatewayClient(gatewayServer, GATEWAY_KEYS.alice);
  const response = await ai.models.generateContent({
    model: "gemini-2.5-flash",
    contents: "What is the sum of 4, 8 and 15?",
    config: { tools: [{ codeExecution: {} }], thinkingConfig: { thinkingBudget: 0 } },
  });
  expect(response.executableCode).toBe("values = [4, 8, 15]\nresult = sum(values)\nprint(result)");
  expect(response.codeExecutionResult).toBe("27\n");
  expect(response.text).toContain("The sum of the 3 values is 27.");
});
