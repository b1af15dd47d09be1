import "server-only";
import { dehydrate, QueryClient, type DehydratedState } from "@tanstack/react-query";
import { conversationKeys, MODELS_QUERY_KEY, PRESETS_QUERY_KEY } from "@/lib/studio/query-keys";
import type { ConversationList } from "@/lib/studio/conversation-schema";
import type { PresetList } from "@/lib/studio/settings-presets";
import { pageCaller } from "./page-session";
import { studioModelFacts } from "../models/model-facts";
import { dataStores } from "../persistence/database-handle";

/** The page waits this long at most for what it renders with (an upstream's model list, a slow database). */
const RENDER_WAIT_MS = 1500;

/** The value, or a rejection once `milliseconds` passed without it. */
function within<Value>(promise: Promise<Value>, milliseconds: number): Promise<Value> {
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) =>
      setTimeout(() => reject(new Error("not in time")), milliseconds).unref?.(),
    ),
  ]);
}

/**
 * What the chat pages need before the person can type, read together while the page is
 * rendered: the model facts, the conversation list and the settings presets, as the pages'
 * queries hold them (the same answers as `/api/models`, `/api/conversations` and
 * `/api/presets`). Null for a page without a session: it fetches once signed in. A list that
 * cannot be read in time is left out; the page's query fetches it (and shows why if it fails).
 */
export async function chatPageState(): Promise<DehydratedState | null> {
  const caller = await pageCaller();
  if (!caller) return null;
  const client = new QueryClient();
  const stores = await dataStores();
  const signal = AbortSignal.timeout(15_000);
  const [models, conversations, presets] = await Promise.allSettled([
    within(studioModelFacts({ caller, signal }), RENDER_WAIT_MS),
    within(stores.conversations.list(caller.ownerId), RENDER_WAIT_MS),
    within(stores.presets.list(caller.ownerId), RENDER_WAIT_MS),
  ]);
  if (models.status === "fulfilled") client.setQueryData(MODELS_QUERY_KEY, models.value);
  if (conversations.status === "fulfilled")
    client.setQueryData<ConversationList>(conversationKeys.list(""), {
      conversations: conversations.value,
    });
  if (presets.status === "fulfilled")
    client.setQueryData<PresetList>(PRESETS_QUERY_KEY, { presets: presets.value });
  return dehydrate(client);
}
