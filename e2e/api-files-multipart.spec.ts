/**
 * The single-request upload (`X-Goog-Upload-Protocol: multipart`) in both modes: the legacy
 * JS SDK's GoogleAIFileManager unchanged, and malformed bodies sent raw.
 */
import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { GoogleGenerativeAI } from "@google/generative-ai";
import { GoogleAIFileManager } from "@google/generative-ai/server";
import { api } from "./support/api";
import {
  GATEWAY_KEYS,
  gatewayServer,
  keyedServer,
  STUDIO_KEYS,
  type ServerInfo,
} from "./support/servers";

interface ErrorBody {
  error: {
    code: number;
    message: string;
    status: string;
    details?: { fieldViolations?: { field: string }[] }[];
  };
}

const modes: { name: string; server: ServerInfo; key: string; otherKey?: string }[] = [
  // A key of its own: "nothing is stored" compares the caller's file list before and after,
  // which other specs' uploads under a shared key would change meanwhile.
  { name: "local engine", server: keyedServer, key: STUDIO_KEYS.uploader },
  { name: "gateway", server: gatewayServer, key: GATEWAY_KEYS.alice, otherKey: GATEWAY_KEYS.bob },
];

function serviceHash(bytes: Uint8Array): string {
  return Buffer.from(createHash("sha256").update(bytes).digest("hex"), "utf8").toString("base64");
}

function multipartBody(boundary: string, metadata: string, bytes: Uint8Array, type = "text/plain") {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${metadata}\r\n--${boundary}\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--`),
  ]);
}

async function fileNames(server: ServerInfo, key: string): Promise<string[]> {
  const listed = await api("/v1beta/files?pageSize=100", { server, key });
  return ((listed.body as { files?: { name: string }[] }).files ?? []).map((file) => file.name);
}

for (const mode of modes) {
  test.describe(`multipart uploads (${mode.name})`, () => {
    test("GoogleAIFileManager.uploadFile stores the file, ACTIVE, usable in a prompt", async () => {
      const manager = new GoogleAIFileManager(mode.key, { baseUrl: mode.server.baseUrl });
      const text = `The lighthouse keeper's log, ${mode.name}: ${"ships passed at night. ".repeat(200)}`;
      const bytes = Buffer.from(text);
      const uploaded = await manager.uploadFile(bytes, {
        mimeType: "text/plain",
        displayName: "keeper log",
      });
      expect(uploaded.file.name).toMatch(/^files\/[a-z0-9-]+$/);
      expect(uploaded.file.displayName).toBe("keeper log");
      expect(uploaded.file.sizeBytes).toBe(String(bytes.length));
      expect(uploaded.file.sha256Hash).toBe(serviceHash(bytes));
      let file = await manager.getFile(uploaded.file.name);
      for (let attempt = 0; file.state === "PROCESSING" && attempt < 100; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        file = await manager.getFile(uploaded.file.name);
      }
      expect(file.state).toBe("ACTIVE");
      const model = new GoogleGenerativeAI(mode.key).getGenerativeModel(
        { model: "gemini-2.0-flash" },
        { baseUrl: mode.server.baseUrl },
      );
      const withFile = await model.countTokens([
        { fileData: { fileUri: file.uri, mimeType: file.mimeType } },
        { text: "Summarise the log." },
      ]);
      const without = await model.countTokens([{ text: "Summarise the log." }]);
      // The file's text is counted into the prompt: it reached the model.
      expect(withFile.totalTokens).toBeGreaterThan(without.totalTokens + 500);
      if (mode.otherKey) {
        const other = await api(`/v1beta/${uploaded.file.name}`, {
          server: mode.server,
          key: mode.otherKey,
        });
        expect(other.status).toBe(403);
      }
      await manager.deleteFile(uploaded.file.name);
    });

    test("malformed bodies get the 400 naming the field, and nothing is stored", async () => {
      const before = await fileNames(mode.server, mode.key);
      const send = (headers: Record<string, string>, body: Uint8Array) =>
        fetch(`${mode.server.baseUrl}/upload/v1beta/files`, {
          method: "POST",
          headers: { "x-goog-api-key": mode.key, ...headers },
          body: new Uint8Array(body),
        });
      const whole = multipartBody(
        "b0undary",
        '{"file":{"displayName":"x"}}',
        Buffer.alloc(4000, 65),
      );
      const cases: {
        name: string;
        headers: Record<string, string>;
        body: Buffer;
        field: string;
      }[] = [
        {
          name: "missing boundary",
          headers: {
            "X-Goog-Upload-Protocol": "multipart",
            "Content-Type": "multipart/related",
          },
          body: whole,
          field: "Content-Type",
        },
        {
          name: "truncated bytes part",
          headers: {
            "X-Goog-Upload-Protocol": "multipart",
            "Content-Type": "multipart/related; boundary=b0undary",
          },
          body: whole.subarray(0, whole.length - 20),
          field: "media",
        },
        {
          name: "metadata that is not JSON",
          headers: {
            "X-Goog-Upload-Protocol": "multipart",
            "Content-Type": "multipart/related; boundary=b0undary",
          },
          body: multipartBody("b0undary", "{file: nope", Buffer.alloc(10, 65)),
          field: "metadata",
        },
        {
          name: "unknown protocol",
          headers: { "X-Goog-Upload-Protocol": "raw", "Content-Type": "text/plain" },
          body: Buffer.alloc(10, 65),
          field: "X-Goog-Upload-Protocol",
        },
      ];
      for (const item of cases) {
        const response = await send(item.headers, item.body);
        expect(response.status, item.name).toBe(400);
        expect(response.headers.get("content-type"), item.name).toBe(
          "application/json; charset=UTF-8",
        );
        const body = (await response.json()) as ErrorBody;
        expect(body.error.status, item.name).toBe("INVALID_ARGUMENT");
        expect(body.error.details?.[0]?.fieldViolations?.[0]?.field, item.name).toBe(item.field);
      }
      expect(await fileNames(mode.server, mode.key)).toEqual(before);
    });
  });
}
