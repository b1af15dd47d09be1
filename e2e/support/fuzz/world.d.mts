/** Types of world.mjs (the resources a fuzz run starts from). */
export interface FuzzWorld {
  host: string;
  keys: { owner: string; other: string };
  cookie: string;
  models: string[];
  fileNames: string[];
  otherFileNames: string[];
  cacheNames: string[];
  otherCacheNames: string[];
  conversationIds: string[];
  otherConversationIds: string[];
  messageIds: string[];
  uploadIds: string[];
  interactionIds: string[];
  otherInteractionIds: string[];
  accessCode: string | null;
}
export function uploadFile(
  baseUrl: string,
  key: string,
  bytes: Uint8Array,
  mimeType: string,
  displayName: string,
): Promise<string>;
export function openUpload(
  baseUrl: string,
  key: string,
  size: number,
  sent: number,
): Promise<string>;
export function openSession(baseUrl: string, accessCode: string | null): Promise<string>;
export function buildWorld(
  baseUrl: string,
  options: { keys: { owner: string; other: string }; accessCode?: string | null },
): Promise<FuzzWorld>;
