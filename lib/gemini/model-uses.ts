/**
 * What a model is for and what a prompt to it may hold, as the service's model documentation
 * states them (published): the engine's catalog names each family's purpose and input
 * modalities; the MIME types of each input modality are the documented ones (with the
 * spellings browsers give the same formats). Safe in the browser.
 */

/** What a model does: the studio groups its models by it. */
export type ModelPurpose =
  "chat" | "image" | "speech" | "music" | "agent" | "robotics" | "embedding" | "other";

export const MODEL_PURPOSES: readonly ModelPurpose[] = [
  "chat",
  "image",
  "speech",
  "music",
  "agent",
  "robotics",
  "embedding",
  "other",
];

/** What a prompt may hold. */
export type InputModality = "TEXT" | "IMAGE" | "AUDIO" | "VIDEO" | "DOCUMENT";

/** The documented MIME types of each input modality (text: any `text/*` too). */
export const INPUT_MIME_TYPES: Readonly<Record<InputModality, readonly string[]>> = {
  TEXT: [
    "text/plain",
    "application/json",
    "application/xml",
    "application/x-javascript",
    "application/javascript",
    "application/x-python",
    "application/x-yaml",
    "application/yaml",
    "application/sql",
    "application/x-sh",
    "application/rtf",
  ],
  IMAGE: ["image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"],
  AUDIO: [
    "audio/wav",
    "audio/x-wav",
    "audio/wave",
    "audio/mp3",
    "audio/mpeg",
    "audio/aiff",
    "audio/x-aiff",
    "audio/aac",
    "audio/ogg",
    "audio/flac",
    "audio/x-flac",
  ],
  VIDEO: [
    "video/mp4",
    "video/mpeg",
    "video/mpg",
    "video/mov",
    "video/quicktime",
    "video/avi",
    "video/x-msvideo",
    "video/x-flv",
    "video/webm",
    "video/wmv",
    "video/x-ms-wmv",
    "video/3gpp",
  ],
  DOCUMENT: ["application/pdf"],
};

/** A MIME type without parameters, lower case. */
function essence(mimeType: string): string {
  return mimeType.split(";")[0]!.trim().toLowerCase();
}

/** The input modality a MIME type belongs to, or null when the service takes it as none. */
export function inputModalityOf(mimeType: string): InputModality | null {
  const type = essence(mimeType);
  if (type.startsWith("text/")) return "TEXT";
  for (const [modality, types] of Object.entries(INPUT_MIME_TYPES))
    if (types.includes(type)) return modality as InputModality;
  return null;
}

/** Whether a model taking these modalities accepts a part of this MIME type. */
export function acceptsMimeType(inputs: readonly InputModality[], mimeType: string): boolean {
  const modality = inputModalityOf(mimeType);
  return modality !== null && inputs.includes(modality);
}

const MODALITY_WORDS: Record<InputModality, string> = {
  TEXT: "text",
  IMAGE: "images (PNG, JPEG, WebP, HEIC)",
  AUDIO: "audio (WAV, MP3, AIFF, AAC, OGG, FLAC)",
  VIDEO: "video (MP4, MPEG, MOV, AVI, FLV, WebM, WMV, 3GPP)",
  DOCUMENT: "PDF documents",
};

/** "text, images (PNG, JPEG, WebP, HEIC) and PDF documents": what a model takes, in words. */
export function describeInputs(inputs: readonly InputModality[]): string {
  const words = inputs.map((modality) => MODALITY_WORDS[modality]);
  if (words.length <= 1) return words[0] ?? "nothing";
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}
