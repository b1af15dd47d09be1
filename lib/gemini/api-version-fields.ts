/**
 * Fields a request may carry on one API version only. A Part's `mediaResolution` (a
 * per-part resolution, Gemini 3) is a v1alpha field: on v1beta the service refuses it as an
 * unknown field (recorded: gemini-3-pro-preview, an image and a video part with
 * `mediaResolution: {level: MEDIA_RESOLUTION_HIGH}`, 400 "Unknown name \"mediaResolution\" at
 * 'contents[0].parts[1]': Cannot find field."). Requests the studio builds itself name no
 * version and are not held to it.
 */
import { ApiError } from "./api-error";
import type { Content } from "./types";

/** The versions in a request's path (`/v1beta/...`). */
export type ApiVersion = "v1" | "v1beta" | "v1alpha";

/** The service's refusal of a field the request's version does not have, or undefined. */
export function versionFieldRefusal(
  request: { contents?: readonly Content[]; systemInstruction?: Content },
  apiVersion: ApiVersion | undefined,
): ApiError | undefined {
  if (apiVersion === undefined || apiVersion === "v1alpha") return undefined;
  const place = partWithMediaResolution(request);
  if (place === undefined) return undefined;
  const message = `Invalid JSON payload received. Unknown name "mediaResolution" at '${place}': Cannot find field.`;
  return ApiError.invalidArgument(message, [{ field: place, description: message }]);
}

function partWithMediaResolution(request: {
  contents?: readonly Content[];
  systemInstruction?: Content;
}): string | undefined {
  const parts = request.systemInstruction?.parts ?? [];
  for (let index = 0; index < parts.length; index++)
    if (parts[index]!.mediaResolution !== undefined) return `system_instruction.parts[${index}]`;
  const contents = request.contents ?? [];
  for (let content = 0; content < contents.length; content++) {
    const list = contents[content]!.parts ?? [];
    for (let index = 0; index < list.length; index++)
      if (list[index]!.mediaResolution !== undefined) return `contents[${content}].parts[${index}]`;
  }
  return undefined;
}
