/**
 * File search stores end to end with the official JS SDK (@google/genai), against the local
 * engine and through the gateway (chained to a local engine): create a store, upload a text
 * document, wait for its operation, ask with the fileSearch tool and get an answer grounded in
 * the document, then delete. And tenants stay apart: another tenant is refused the store in
 * every place that names it, with the service's 403 for a store.
 */
import { expect, test } from "@playwright/test";
import type { GoogleGenAI } from "@google/genai";
import { api, sdkClient } from "./support/api";
import {
  GATEWAY_KEYS,
  STUDIO_KEYS,
  gatewayServer,
  keyedServer,
  type ServerInfo,
} from "./support/servers";

const MODEL = "gemini-2.5-flash";
const FACT =
  "The secret project codename is Chimera. It was started in 2024 and involves distributed caching.";
const QUESTION = "What is the secret project codename?";
const STORE_DENIED = "FileSearchStore not found (or permission denied)";

interface Setup {
  server: ServerInfo;
  owner: string;
  intruder: string;
}

const SETUPS: [string, Setup][] = [
  ["local engine", { server: keyedServer, owner: STUDIO_KEYS.alice, intruder: STUDIO_KEYS.bob }],
  ["gateway", { server: gatewayServer, owner: GATEWAY_KEYS.alice, intruder: GATEWAY_KEYS.bob }],
];

/** Creates a store holding the fact as a document, with the SDK; answers the store and document names. */
async function storeWithDocument(ai: GoogleGenAI): Promise<{ store: string; document: string }> {
  const store = await ai.fileSearchStores.create({ config: { displayName: "e2e notes" } });
  expect(store.name).toMatch(/^fileSearchStores\/e2enotes-[a-z0-9]+$/);
  let operation = await ai.fileSearchStores.uploadToFileSearchStore({
    fileSearchStoreName: store.name!,
    file: new Blob([FACT], { type: "text/plain" }),
    config: { displayName: "project-notes.txt", mimeType: "text/plain" },
  });
  for (let polls = 0; !operation.done && polls < 50; polls++) {
    operation = await ai.operations.get({ operation });
    if (!operation.done) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(operation.done).toBe(true);
  expect(operation.response?.documentName).toMatch(
    new RegExp(`^${store.name}/documents/projectnotestxt-`),
  );
  return { store: store.name!, document: operation.response!.documentName! };
}

for (const [label, setup] of SETUPS) {
  test(`${label}: a store made, filled, searched and deleted with @google/genai`, async () => {
    const ai = sdkClient(setup.server, setup.owner);
    const { store, document } = await storeWithDocument(ai);
    const got = await ai.fileSearchStores.get({ name: store });
    expect(got.activeDocumentsCount).toBe("1");
    const documents = await ai.fileSearchStores.documents.list({ parent: store });
    expect(documents.page.map((item) => item.name)).toEqual([document]);

    const answer = await ai.models.generateContent({
      model: MODEL,
      contents: QUESTION,
      config: { tools: [{ fileSearch: { fileSearchStoreNames: [store] } }] },
    });
    expect(answer.text).toContain("Chimera");
    const metadata = answer.candidates?.[0]?.groundingMetadata;
    expect(metadata?.groundingChunks?.[0]?.retrievedContext).toMatchObject({
      title: "project-notes.txt",
      fileSearchStore: store,
    });
    expect(metadata?.groundingChunks?.[0]?.retrievedContext?.text).toContain("Chimera");
    expect(metadata?.groundingSupports?.[0]?.groundingChunkIndices).toEqual([0]);
    expect(answer.usageMetadata?.toolUsePromptTokenCount).toBeGreaterThan(0);

    await ai.fileSearchStores.documents.delete({ name: document, config: { force: true } });
    await ai.fileSearchStores.delete({ name: store, config: { force: true } });
    await expect(ai.fileSearchStores.get({ name: store })).rejects.toThrow(/403|permission/i);
  });

  test(`${label}: another tenant is refused the store in every place`, async () => {
    const { store, document } = await storeWithDocument(sdkClient(setup.server, setup.owner));
    const contents = [{ role: "user", parts: [{ text: QUESTION }] }];
    const tools = [{ fileSearch: { fileSearchStoreNames: [store] } }];
    const model = `models/${MODEL}`;
    const places: [string, string, string, unknown?][] = [
      ["get store", "GET", `/v1beta/${store}`],
      ["delete store", "DELETE", `/v1beta/${store}?force=true`],
      ["list documents", "GET", `/v1beta/${store}/documents`],
      ["get document", "GET", `/v1beta/${document}`],
      ["delete document", "DELETE", `/v1beta/${document}?force=true`],
      ["import a file", "POST", `/v1beta/${store}:importFile`, { fileName: "files/abc" }],
      ["generateContent", "POST", `/v1beta/${model}:generateContent`, { contents, tools }],
      [
        "streamGenerateContent",
        "POST",
        `/v1beta/${model}:streamGenerateContent?alt=sse`,
        { contents, tools },
      ],
      [
        "countTokens",
        "POST",
        `/v1beta/${model}:countTokens`,
        { generateContentRequest: { model, contents, tools } },
      ],
      ["cachedContents create", "POST", "/v1beta/cachedContents", { model, contents, tools }],
      [
        "batches create",
        "POST",
        `/v1beta/${model}:batchGenerateContent`,
        { batch: { inputConfig: { requests: { requests: [{ request: { contents, tools } }] } } } },
      ],
    ];
    const leaks: string[] = [];
    for (const [place, method, path, body] of places) {
      const answer = await api(path, { server: setup.server, key: setup.intruder, method, body });
      if (answer.status !== 403 || !answer.text.includes(STORE_DENIED))
        leaks.push(`${place}: ${answer.status} ${answer.text.slice(0, 200)}`);
    }
    const upload = await api(`/upload/v1beta/${store}:uploadToFileSearchStore`, {
      server: setup.server,
      key: setup.intruder,
      method: "POST",
      body: { displayName: "intruder.txt" },
      headers: {
        "x-goog-upload-protocol": "resumable",
        "x-goog-upload-command": "start",
        "x-goog-upload-header-content-type": "text/plain",
      },
    });
    if (upload.status !== 403) leaks.push(`upload start: ${upload.status} ${upload.text}`);
    const listed = await api("/v1beta/fileSearchStores", {
      server: setup.server,
      key: setup.intruder,
    });
    if (listed.text.includes(store)) leaks.push(`list: ${listed.text}`);
    expect(leaks).toEqual([]);
    // Refused, not deleted: the owner still has the store and its document.
    const owner = sdkClient(setup.server, setup.owner);
    expect((await owner.fileSearchStores.get({ name: store })).activeDocumentsCount).toBe("1");
    await owner.fileSearchStores.delete({ name: store, config: { force: true } });
  });
}
