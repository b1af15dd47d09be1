import "server-only";
import { randomBytes } from "node:crypto";
import type { Caller } from "@/lib/gemini/backend/contract";
import { logSettingOf } from "../auth/identity-cache";
import type { AnswerUsageFacts, RequestObservation } from "./request-observation";
import { createMediaElider, type MediaElider } from "./inline-media";
import { enqueueLogEntry } from "./log-writer";
import { exchangeLine, keptHeaders, type ExchangeParts } from "./exchange-line";
import { logScrubber } from "./log-scrubber";

/**
 * One request's log entry, captured as the request is served, for a caller whose key or person
 * asked for logging (the longer retention of the two applies; media are kept if either asked).
 * The request body is read from a copy of the request (`Request.clone`), never from the
 * handler's; the answer is copied piece by piece as the client is sent it, never held back. Both
 * stop being copied past MAX_LOGGED_CHARACTERS (the entry says it was cut). Inline media are
 * left out as they are read unless asked for; secrets are scrubbed from the whole line.
 */

/** Most characters of a body (each of the request and the answer) a log entry keeps. */
export const MAX_LOGGED_CHARACTERS = 1024 * 1024;

export interface LogCapture {
  responseStarted(response: Response, atMs: number): void;
  responseChunk(bytes: Uint8Array, atMs: number): void;
  finish(status: number, durationMs: number, usage: AnswerUsageFacts | null): void;
}

interface Logging {
  retentionDays: number;
  includeMedia: boolean;
}

/**
 * Whether `caller` can have asked for logging at all: only a studio-made key or a person can
 * (a configured key or an upload session's owner has no setting to read).
 */
export function mayAskForLogging(caller: Caller): boolean {
  return caller.key?.managed === true || Boolean(caller.person);
}

/** The logging `caller` asked for (its key's, its person's, or both merged), or null. */
export async function loggingFor(caller: Caller): Promise<Logging | null> {
  const subjects: string[] = [];
  if (caller.key?.managed) subjects.push(`key:${caller.key.id}`);
  if (caller.person) subjects.push(`person:${caller.person.id}`);
  if (subjects.length === 0) return null;
  const settings = (await Promise.all(subjects.map((subject) => logSettingOf(subject)))).filter(
    (setting) => setting !== null,
  );
  if (settings.length === 0) return null;
  return {
    retentionDays: Math.max(...settings.map((setting) => setting.retentionDays)),
    includeMedia: settings.some((setting) => setting.includeMedia),
  };
}

/** Reads up to MAX_LOGGED_CHARACTERS of a body; the rest is not read (its copy is let go). */
async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  elider: MediaElider | null,
): Promise<{ text: string; cut: boolean }> {
  if (body === null) return { text: "", cut: false };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    const piece = done ? decoder.decode() : decoder.decode(value, { stream: true });
    text += elider ? elider.push(piece) : piece;
    if (done) break;
    if (text.length > MAX_LOGGED_CHARACTERS) {
      cut = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  if (elider && !cut) text += elider.end();
  return { text: text.slice(0, MAX_LOGGED_CHARACTERS), cut };
}

function presentedSecrets(request: Request): string[] {
  const secrets: string[] = [];
  const header = request.headers.get("x-goog-api-key");
  if (header) secrets.push(header.trim());
  const query = new URL(request.url).searchParams.get("key");
  if (query) secrets.push(query);
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (bearer) secrets.push(bearer.trim());
  return secrets;
}

export async function startLogCapture(observation: RequestObservation): Promise<LogCapture | null> {
  const caller = observation.caller;
  if (!caller) return null;
  const logging = await loggingFor(caller);
  if (logging === null) return null;
  const { request, url } = observation;
  const upload = (observation.operation ?? "").includes(".upload.");
  const hasBody = request.body !== null && request.method !== "GET" && !upload;
  const requestBody = hasBody
    ? readCapped(request.clone().body, logging.includeMedia ? null : createMediaElider()).catch(
        () => ({ text: "", cut: true }),
      )
    : Promise.resolve({ text: "", cut: false });
  const responseElider = logging.includeMedia ? null : createMediaElider();
  const decoder = new TextDecoder();
  let responseText = "";
  let responseCut = false;
  let headersMs = 0;
  let responseHeaders: Record<string, string> = {};
  const chunks: Array<[number, number]> = [];
  const append = (piece: string, atMs: number) => {
    if (responseCut || piece.length === 0) return;
    const room = MAX_LOGGED_CHARACTERS - responseText.length;
    const kept = piece.length > room ? piece.slice(0, room) : piece;
    if (piece.length > room) responseCut = true;
    responseText += kept;
    chunks.push([Math.round(atMs), Buffer.byteLength(kept)]);
  };
  let finished = false;

  return {
    responseStarted(response, atMs) {
      headersMs = Math.round(atMs);
      responseHeaders = keptHeaders(response.headers);
      // A download's bytes (not text) are not logged: the entry says its body was cut.
      const type = response.headers.get("content-type") ?? "";
      if (type !== "" && !/json|text\/|event-stream/i.test(type)) responseCut = true;
    },
    responseChunk(bytes, atMs) {
      if (responseCut) return;
      const piece = decoder.decode(bytes, { stream: true });
      append(responseElider ? responseElider.push(piece) : piece, atMs);
    },
    finish(status, durationMs, usage) {
      if (finished) return;
      finished = true;
      const tail = decoder.decode();
      const lastMs = chunks.length ? chunks[chunks.length - 1]![0] : headersMs;
      append(responseElider ? responseElider.push(tail) + responseElider.end() : tail, lastMs);
      void requestBody.then((body) => {
        const parts: ExchangeParts = {
          request,
          url,
          operation: observation.operation ?? "unmatched",
          requestBody: body.text,
          requestCut: body.cut,
          status,
          responseHeaders,
          responseBody: responseText,
          responseCut,
          timing: { headersMs, chunks },
        };
        const id = `${observation.startedAt.toString(36)}${randomBytes(8).toString("base64url")}`;
        const line = logScrubber(presentedSecrets(request))(exchangeLine(id, parts));
        enqueueLogEntry({
          id,
          ownerId: caller.ownerId,
          personId: caller.person?.id ?? "",
          keyId: caller.key?.id ?? "",
          at: observation.startedAt,
          operation: parts.operation,
          model: (observation.model ?? "").slice(0, 200),
          status,
          durationMs,
          totalTokens: usage?.totalTokens ?? 0,
          nanodollars: usage?.nanodollars ?? 0,
          expiresAt: observation.startedAt + logging.retentionDays * 86_400_000,
          exchangeJson: line,
        });
      });
    },
  };
}
