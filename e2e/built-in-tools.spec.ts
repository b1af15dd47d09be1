import { expect, test } from "@playwright/test";
import type { CachedContent, File as WireFile } from "@/lib/gemini/types";
import { ChatPage } from "./pages/chat-page";
import { expectNoSeriousViolations } from "./pages/answer-metadata";
import { FilesPage, dropFiles } from "./pages/files-page";
import { sdkClient } from "./support/api";
import { gatewayClient } from "./support/gateway";
import { GATEWAY_KEYS, gatewayServer, keyedServer, STUDIO_KEYS } from "./support/servers";

/**
 * Built-in tools: switches offered per model; the local engine runs code for real
 * (executableCode, codeExecutionResult), grounds answers in its document set (groundingMetadata)
 * and reads this studio's file URIs and cachedContents URLs (urlContextMetadata); the gateway
 * forwards the tools.
 */

const LOGBOOK =
  "The keeper of Quillon Point writes the weather down every evening. Ships pass the point at dawn. ".repeat(
    70,
  );

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

test("URL context: this studio's file URIs and cached contents are read, other URLs fail as offline", async ({
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
  // A cache of this session's own, named by the studio's URL of it.
  const cache = await page.evaluate(async (text) => {
    const response = await fetch("/v1beta/cachedContents", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "models/gemini-2.5-flash",
        contents: [{ role: "user", parts: [{ text }] }],
        ttl: "600s",
      }),
    });
    return (await response.json()) as CachedContent;
  }, LOGBOOK);
  const cacheUrl = new URL(`/v1beta/${cache.name}`, page.url()).href;

  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(300);
  await (await toolSwitch(chat, /^URL context/)).check();
  await chat.send(
    `Summarise ${uploaded.uri}, ${cacheUrl} and https://unreachable.example/page please.`,
  );
  await chat.waitForAnswerDone();
  await expect(chat.answerText()).toContainText("The harbour master logs every ship at dawn.");
  const context = chat.lastAnswer().getByRole("region", { name: "URL context" });
  await expect(context.locator("[data-url-status]")).toHaveCount(3);
  await expect(context.locator('[data-url-status="URL_RETRIEVAL_STATUS_SUCCESS"]')).toHaveCount(2);
  await expect(
    context.locator('[data-url-status="URL_RETRIEVAL_STATUS_SUCCESS"]').first(),
  ).toContainText(uploaded.uri!);
  await expect(
    context.locator('[data-url-status="URL_RETRIEVAL_STATUS_SUCCESS"]').last(),
  ).toContainText(cacheUrl);
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
      { retrievedUrl: cacheUrl, urlRetrievalStatus: "URL_RETRIEVAL_STATUS_SUCCESS" },
      {
        retrievedUrl: "https://unreachable.example/page",
        urlRetrievalStatus: "URL_RETRIEVAL_STATUS_ERROR",
      },
    ],
  });
  await expectNoSeriousViolations(page);
});

test("URL context reads a cache only for its owner: another owner's or a missing one is unreachable", async () => {
  const alice = sdkClient(keyedServer, STUDIO_KEYS.alice);
  const bob = sdkClient(keyedServer, STUDIO_KEYS.bob);
  const cache = await alice.caches.create({
    model: "gemini-2.5-flash",
    config: { contents: [{ role: "user", parts: [{ text: LOGBOOK }] }], ttl: "600s" },
  });
  const cacheUrl = `${keyedServer.baseUrl}/v1beta/${cache.name}`;
  const missingUrl = `${keyedServer.baseUrl}/v1beta/cachedContents/${"0".repeat(40)}`;
  const ask = (client: typeof alice) =>
    client.models.generateContent({
      model: "gemini-2.5-flash",
      contents: `What do ${cacheUrl} and ${missingUrl} say?`,
      config: { tools: [{ urlContext: {} }], thinkingConfig: { thinkingBudget: 0 } },
    });
  const status = (url: string, urlRetrievalStatus: string) => ({
    retrievedUrl: url,
    urlRetrievalStatus,
  });

  const owner = await ask(alice);
  expect(owner.candidates![0]!.urlContextMetadata).toEqual({
    urlMetadata: [
      status(cacheUrl, "URL_RETRIEVAL_STATUS_SUCCESS"),
      status(missingUrl, "URL_RETRIEVAL_STATUS_ERROR"),
    ],
  });
  expect(owner.text).toContain(
    `${cacheUrl} says: The keeper of Quillon Point writes the weather down every evening.`,
  );
  const other = await ask(bob);
  expect(other.candidates![0]!.urlContextMetadata).toEqual({
    urlMetadata: [
      status(cacheUrl, "URL_RETRIEVAL_STATUS_ERROR"),
      status(missingUrl, "URL_RETRIEVAL_STATUS_ERROR"),
    ],
  });
  expect(other.text).not.toContain("Quillon");
  await alice.caches.delete({ name: cache.name! });
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
