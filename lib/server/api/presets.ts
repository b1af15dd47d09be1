import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import {
  MAX_PRESETS,
  presetNameSchema,
  savePresetSchema,
  type PresetList,
} from "@/lib/studio/settings-presets";
import { authenticate } from "../auth/authenticate";
import { dataStores } from "../persistence/database-handle";
import { errorResponse, jsonResponse } from "../http/responses";
import { parseBody, validated } from "./conversation-requests";

/**
 * `/api/presets`: a person's settings presets (lib/studio/settings-presets.ts). GET lists them;
 * PUT `/api/presets/{name}` saves one (the
 * default moves to it when it says so); DELETE removes one. A session or studio key; each
 * owner sees only their own.
 */

async function list(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const presets = await (await dataStores()).presets.list(caller.ownerId);
    return jsonResponse({ presets } satisfies PresetList);
  } catch (error) {
    return errorResponse(error);
  }
}

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

async function save(request: Request, rawName: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const name = presetName(rawName);
    const body = await parseBody(request, savePresetSchema);
    const { presets } = await dataStores();
    const existing = await presets.list(caller.ownerId);
    if (!existing.some((preset) => preset.name === name) && existing.length >= MAX_PRESETS)
      throw ApiError.invalidArgument(
        `A person keeps at most ${MAX_PRESETS} presets: delete one before saving another.`,
      );
    return jsonResponse(
      await presets.save(caller.ownerId, {
        name,
        settings: body.settings as ConversationSettings,
        isDefault: body.isDefault,
      }),
    );
  } catch (error) {
    return errorResponse(error);
  }
}

async function remove(request: Request, rawName: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const name = presetName(rawName);
    if (!(await (await dataStores()).presets.delete(caller.ownerId, name)))
      throw ApiError.notFound(`There is no preset named "${name}".`);
    return jsonResponse({});
  } catch (error) {
    return errorResponse(error);
  }
}

/** The handlers of the route files under app/api/presets. */
export const presetHandlers = { list, save, remove };
