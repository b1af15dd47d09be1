/**
 * Rules for contents and systemInstruction: contents present, every Content with parts,
 * every part with exactly one data field (two is already a JSON payload error), roles the
 * service accepts, and a text-only system instruction.
 */
import type { Content, Part } from "../../types";
import { durationProblem } from "../../wire-time";
import { PART_DATA_FIELDS, type PartDataField } from "../content";
import { camelToSnake } from "../wire";
import { runSteps, type Steps } from "../../steps";
import { Violations, fieldPath } from "./violations";

/** Roles the service accepts; "function" and "tool" are what it takes for function responses. */
export const CONTENT_ROLES = ["user", "model", "function", "tool"] as const;

/** The data field a part sets, if any. */
export function partDataField(part: Part): PartDataField | undefined {
  return PART_DATA_FIELDS.find((name) => name in part && isSet(part, name));
}

/**
 * Whether a part's member is set, without reading it when it is an accessor: a long text read
 * in the body reader worker is held as its code units until the tokenizer has counted it, and
 * reading it here would make the string of megabytes on the request's thread.
 */
function isSet(part: Part, name: PartDataField): boolean {
  const member = Object.getOwnPropertyDescriptor(part, name);
  return member !== undefined && (member.get !== undefined || member.value !== undefined);
}

function checkPart(part: Part, path: string, violations: Violations): void {
  const data = partDataField(part);
  if (data === undefined) {
    violations.add(`${path}.data`, "required oneof field 'data' must have one initialized field");
    return;
  }
  if (part.inlineData && part.inlineData.mimeType === "")
    violations.add(`${path}.inline_data.mime_type`, "inline_data.mime_type is required.");
  if (part.fileData && part.fileData.fileUri === "")
    violations.add(`${path}.file_data.file_uri`, "file_data.file_uri is required.");
  if (part.functionCall && part.functionCall.name === "")
    violations.add(`${path}.function_call.name`, "function_call.name is required.");
  if (part.functionResponse && part.functionResponse.name === "")
    violations.add(`${path}.function_response.name`, "function_response.name is required.");
  if (part.videoMetadata) {
    for (const key of ["startOffset", "endOffset"] as const) {
      const offset = part.videoMetadata[key];
      if (offset === undefined) continue;
      const problem =
        durationProblem(offset) ??
        (offset.startsWith("-") ? "an offset must not be negative" : undefined);
      if (problem)
        violations.add(
          `${path}.video_metadata.${camelToSnake(key)}`,
          `${problem}; got ${JSON.stringify(offset)}.`,
        );
    }
    const fps = part.videoMetadata.fps;
    if (fps !== undefined && !(fps > 0 && fps <= 24))
      violations.add(
        `${path}.video_metadata.fps`,
        `fps must be in the range (0.0, 24.0]; got ${fps}.`,
      );
  }
}

/**
 * Checks a `contents` list at `path` (`contents`, `generate_content_request.contents`,
 * `cached_content.contents`). With `required`, an empty list is a violation too.
 */
export function checkContents(
  contents: readonly Content[],
  path: string,
  violations: Violations,
  required: boolean,
): void {
  runSteps(checkContentsSteps(contents, path, violations, required));
}

/** checkContents, one part at a time. */
export function* checkContentsSteps(
  contents: readonly Content[],
  path: string,
  violations: Violations,
  required: boolean,
): Steps {
  if (contents.length === 0) {
    if (required) violations.add(path, "contents is not specified");
    return;
  }
  for (let index = 0; index < contents.length; index++) {
    const content = contents[index]!;
    const contentPath = `${path}[${index}]`;
    if (
      content.role !== undefined &&
      content.role !== "" &&
      !(CONTENT_ROLES as readonly string[]).includes(content.role)
    ) {
      violations.add(
        `${contentPath}.role`,
        `Please use a valid role: user, model. Got ${JSON.stringify(content.role)}.`,
      );
    }
    if (content.parts.length === 0) {
      violations.add(`${contentPath}.parts`, "contents.parts must not be empty.");
      yield;
      continue;
    }
    for (let partIndex = 0; partIndex < content.parts.length; partIndex++) {
      checkPart(content.parts[partIndex]!, `${contentPath}.parts[${partIndex}]`, violations);
      yield;
    }
  }
}

/** Checks a systemInstruction at `path`: at least one part, text parts only. */
export function checkSystemInstruction(
  content: Content,
  path: string,
  violations: Violations,
): void {
  runSteps(checkSystemInstructionSteps(content, path, violations));
}

/** checkSystemInstruction, one part at a time. */
export function* checkSystemInstructionSteps(
  content: Content,
  path: string,
  violations: Violations,
): Steps {
  if (content.parts.length === 0) {
    violations.add(`${path}.parts`, "system_instruction.parts must not be empty.");
    return;
  }
  for (let index = 0; index < content.parts.length; index++) {
    const part = content.parts[index]!;
    const partPath = `${fieldPath(path, "parts")}[${index}]`;
    const data = partDataField(part);
    if (data === undefined)
      violations.add(
        `${partPath}.data`,
        "required oneof field 'data' must have one initialized field",
      );
    else if (data !== "text")
      violations.add(
        `${partPath}.${camelToSnake(data)}`,
        `system_instruction supports text parts only; got ${camelToSnake(data)}.`,
      );
    yield;
  }
}
