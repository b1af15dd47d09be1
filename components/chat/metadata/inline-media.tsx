"use client";

import { useEffect, useState } from "react";
import type { Blob as InlineBlob } from "@/lib/gemini/types";
import { base64Bytes, pcmFormatOf, wavFromPcm } from "./pcm-wav";

function extensionOf(mimeType: string): string {
  const subtype = mimeType.split(";")[0]!.split("/")[1] ?? "bin";
  return subtype.replace(/^x-/, "").replace(/[^a-z0-9]+/gi, "") || "bin";
}

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KiB`;
}

type MediaKind = "audio" | "video" | "file";

function kindOf(type: string): MediaKind {
  return type.startsWith("audio/") ? "audio" : type.startsWith("video/") ? "video" : "file";
}

/**
 * An object URL for the part's bytes (raw PCM wrapped as WAV), revoked when the part goes away.
 * Whatever is not played is typed `application/octet-stream`: a blob URL lives in the studio's
 * origin, so an answer's HTML, SVG, XML or script opened from it would run as the studio's own
 * page; typed as bytes, the browser can only download it.
 */
function useObjectUrl(inline: InlineBlob): { url: string | null; kind: MediaKind; size: number } {
  const [url, setUrl] = useState<string | null>(null);
  const pcm = pcmFormatOf(inline.mimeType);
  const declared = pcm ? "audio/wav" : inline.mimeType.split(";")[0]!.trim().toLowerCase();
  const kind = kindOf(declared);
  const type = kind === "file" ? "application/octet-stream" : declared;
  const size = Math.floor((inline.data.replace(/=+$/, "").length * 3) / 4);
  useEffect(() => {
    const bytes = base64Bytes(inline.data);
    const body = pcm ? wavFromPcm(bytes, pcm) : bytes;
    const created = URL.createObjectURL(new Blob([body as BlobPart], { type }));
    // The URL is an outside resource whose life is this effect's (revoked in its cleanup), so
    // it is made here rather than while rendering, where Strict Mode would revoke one in use.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setUrl(created);
    return () => URL.revokeObjectURL(created);
    // The format is derived from the MIME type, already a dependency.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [inline.data, inline.mimeType, type]);
  return { url, kind, size };
}

/**
 * An inline_data part of an answer shown as what it is: audio in a player (raw PCM made
 * playable as WAV), video in a player, anything else offered as a download. Images are
 * shown by the parts view itself.
 */
export function InlineMediaPart({ inline }: { inline: InlineBlob }) {
  const { url, kind, size } = useObjectUrl(inline);
  const name = `answer.${pcmFormatOf(inline.mimeType) ? "wav" : extensionOf(inline.mimeType)}`;
  return (
    <figure
      className="my-1 flex flex-col gap-1"
      data-inline-media={kind}
      data-mime-type={inline.mimeType}
    >
      {kind === "audio" && url && (
        <audio
          controls
          src={url}
          aria-label={`Audio in the answer (${inline.mimeType})`}
          className="max-w-full"
        />
      )}
      {kind === "video" && url && (
        <video
          controls
          src={url}
          aria-label={`Video in the answer (${inline.mimeType})`}
          className="max-h-96 max-w-full rounded-md"
        />
      )}
      <figcaption className="text-xs text-zinc-600 dark:text-zinc-400">
        {kind === "file" ? "File" : kind === "audio" ? "Audio" : "Video"} ({inline.mimeType},{" "}
        {formatSize(size)})
        {url && (
          <>
            {" — "}
            <a
              href={url}
              download={name}
              className="text-blue-800 underline underline-offset-2 dark:text-blue-300"
            >
              Download {name}
            </a>
          </>
        )}
      </figcaption>
    </figure>
  );
}
