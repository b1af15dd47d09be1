/**
 * The resources a fuzz run starts from, created through the API itself: files, caches,
 * conversations, interactions and open upload sessions of two owners, and a browser session. Requests
 * that name them get past the "not found" checks and reach the code behind.
 */

const CACHE_TEXT =
  "The lighthouse keeper wrote down every ship that passed, its flag, its cargo and the weather. ".repeat(
    70,
  );

async function call(baseUrl, path, { method = "GET", key, headers = {}, body } = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(key ? { "x-goog-api-key": key } : {}),
      ...(body !== undefined && typeof body === "string"
        ? { "content-type": "application/json" }
        : {}),
      ...headers,
    },
    body,
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return { response, json: text ? JSON.parse(text) : undefined };
}

/** Starts a resumable upload of `size` bytes; the session's path (its upload URL without the origin). */
async function startUpload(baseUrl, key, size, mimeType, body) {
  const started = await call(baseUrl, "/upload/v1beta/files", {
    method: "POST",
    key,
    headers: {
      "x-goog-upload-protocol": "resumable",
      "x-goog-upload-command": "start",
      "x-goog-upload-header-content-length": String(size),
      "x-goog-upload-header-content-type": mimeType,
    },
    body,
  });
  const url = new URL(started.response.headers.get("x-goog-upload-url"));
  return `${url.pathname}${url.search}`;
}

/** Uploads `bytes` in one request; the file's name. */
export async function uploadFile(baseUrl, key, bytes, mimeType, displayName) {
  const session = await startUpload(
    baseUrl,
    key,
    bytes.length,
    mimeType,
    JSON.stringify({ file: { displayName } }),
  );
  const finished = await call(baseUrl, session, {
    method: "POST",
    headers: { "x-goog-upload-command": "upload, finalize", "x-goog-upload-offset": "0" },
    body: bytes,
  });
  return finished.json.file.name;
}

/** Opens an upload session and sends its first `sent` bytes; the session's upload_id. */
export async function openUpload(baseUrl, key, size, sent) {
  const session = await startUpload(baseUrl, key, size, "text/plain", "{}");
  if (sent > 0) {
    await call(baseUrl, session, {
      method: "POST",
      headers: { "x-goog-upload-command": "upload", "x-goog-upload-offset": "0" },
      body: new Uint8Array(sent).fill(101),
    });
  }
  return new URL(session, baseUrl).searchParams.get("upload_id");
}

/** A browser session cookie (`genstudio_session=...`), opened the way the sign-in page does. */
export async function openSession(baseUrl, accessCode) {
  const { response } = await call(baseUrl, "/api/session", {
    method: "POST",
    headers: { origin: baseUrl, "sec-fetch-site": "same-origin" },
    body: JSON.stringify(accessCode ? { accessCode } : {}),
  });
  return response.headers.get("set-cookie").split(";")[0];
}

/** A conversation of `key`'s owner with two messages; its id and the message ids. */
async function createConversation(baseUrl, key, title) {
  const { json } = await call(baseUrl, "/api/conversations", {
    method: "POST",
    key,
    body: JSON.stringify({ title, settings: { model: "models/gemini-2.5-flash" } }),
  });
  const messages = [
    {
      id: `${json.id.slice(0, 20)}-u1`,
      role: "user",
      content: { role: "user", parts: [{ text: "Hello there" }] },
    },
    {
      id: `${json.id.slice(0, 20)}-m1`,
      role: "model",
      content: { role: "model", parts: [{ text: "General Kenobi" }] },
    },
  ];
  await call(baseUrl, `/api/conversations/${json.id}/messages`, {
    method: "POST",
    key,
    body: JSON.stringify({ messages }),
  });
  return { id: json.id, messageIds: messages.map((message) => message.id) };
}

async function createCache(baseUrl, key) {
  const { json } = await call(baseUrl, "/v1beta/cachedContents", {
    method: "POST",
    key,
    body: JSON.stringify({
      model: "models/gemini-2.5-flash",
      contents: [{ role: "user", parts: [{ text: CACHE_TEXT }] }],
      ttl: "7200s",
    }),
  });
  return json.name;
}

/** A short stored interaction of `key`'s owner; its id. */
async function createInteraction(baseUrl, key) {
  const { json } = await call(baseUrl, "/v1beta/interactions", {
    method: "POST",
    key,
    body: JSON.stringify({
      model: "gemini-2.5-flash-lite",
      input: "Hello there",
      generation_config: { max_output_tokens: 8 },
    }),
  });
  return json.id;
}

/**
 * Creates the world on a server whose studio keys are `keys.owner` and `keys.other`.
 * @returns {Promise<import("./requests.mjs").FuzzWorld>}
 */
export async function buildWorld(baseUrl, { keys, accessCode = null }) {
  const { owner, other } = keys;
  const models = (
    (await call(baseUrl, "/v1beta/models?pageSize=100", { key: owner })).json.models ?? []
  ).map((model) => model.name.slice("models/".length));
  const text = new TextEncoder().encode("A small text file for the fuzzer.\n".repeat(20));
  const fileNames = [
    await uploadFile(baseUrl, owner, text, "text/plain", "fuzz.txt"),
    await uploadFile(
      baseUrl,
      owner,
      new TextEncoder().encode('{"a": 1}'),
      "application/json",
      "fuzz.json",
    ),
  ];
  const otherFileNames = [await uploadFile(baseUrl, other, text, "text/plain", "other.txt")];
  const cacheNames = [await createCache(baseUrl, owner)];
  const otherCacheNames = [await createCache(baseUrl, other)];
  const mine = [
    await createConversation(baseUrl, owner, "fuzz one"),
    await createConversation(baseUrl, owner, "fuzz two"),
  ];
  const theirs = [await createConversation(baseUrl, other, "not yours")];
  const uploadIds = [];
  for (let index = 0; index < 6; index++)
    uploadIds.push(await openUpload(baseUrl, owner, 60_000 + index, index * 1000));
  uploadIds.push(await openUpload(baseUrl, other, 5000, 100));
  const interactionIds = [
    await createInteraction(baseUrl, owner),
    await createInteraction(baseUrl, owner),
  ];
  const otherInteractionIds = [await createInteraction(baseUrl, other)];
  const cookie = await openSession(baseUrl, accessCode);
  return {
    host: new URL(baseUrl).host,
    keys: { owner, other },
    cookie,
    models,
    fileNames,
    otherFileNames,
    cacheNames,
    otherCacheNames,
    conversationIds: mine.map((conversation) => conversation.id),
    otherConversationIds: theirs.map((conversation) => conversation.id),
    messageIds: [...mine, ...theirs].flatMap((conversation) => conversation.messageIds),
    uploadIds,
    interactionIds,
    otherInteractionIds,
    accessCode,
  };
}
