import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import {
  MAX_PRESETS,
  presetNameSchema,
  savePresetSchema,
  type PresetList,
} from "@/lib/studio/settings-presets";
import { jsonResponse } from "../http/responses";
import { CONVERSATION_BODY_BYTES } from "./conversation-requests";
import { studioEndpoint, validated } from "./studio-endpoint";

/**
 * `/api/presets`: a person's settings presets (lib/studio/settings-presets.ts). GET lists them;
 * PUT `/api/presets/{name}` saves one (the
 * default moves to it when it says so); DELETE removes one. A session or studio key; each
 * owner sees only their own.
 */

const list = studioEndpoint(async ({ caller, stores: { presets } }) =>
  jsonResponse({ presets: await presets.list(caller.ownerId) } satisfies PresetList),
);

/** The name of the path segment, decoded once (a name that is not valid escaping is taken as it is). */
function presetName(segment: string): string {
  let name = segment;
  try {
    name = decodeURIComponent(segment);
  } catch {
    // "100%" and the like: not an escape, the name itself.
  }
  return validated(name, presetNameSchema);
}

const save = studioEndpoint(async ({ caller, stores: { presets }, body }, rawName: string) => {
  const name = presetName(rawName);
  // As large as a conversation's settings may be (a long system instruction, big schemas).
  const input = await body(savePresetSchema, CONVERSATION_BODY_BYTES);
  const existing = await presets.list(caller.ownerId);
  if (!existing.some((preset) => preset.name === name) && existing.length >= MAX_PRESETS)
    throw ApiError.invalidArgument(
      `A person keeps at most ${MAX_PRESETS} presets: delete one before saving another.`,
    );
  return jsonResponse(
    await presets.save(caller.ownerId, {
      name,
      settings: input.settings,
      isDefault: input.isDefault,
    }),
  );
});

const remove = studioEndpoint(async ({ caller, stores: { presets } }, rawName: string) => {
  const name = presetName(rawName);
  if (!(await presets.delete(caller.ownerId, name)))
    throw ApiError.notFound(`There is no preset named "${name}".`);
  return jsonResponse({});
});

/** The handlers of the route files under app/api/presets. */
export const presetHandlers = { list, save, remove };
