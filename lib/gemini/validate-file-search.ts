/**
 * Reading the bodies and names of the file search operations: a store's create body, an
 * upload's start body and an import's body (each with the document's display name, custom
 * metadata and chunking config), and the `fileSearchStores/{id}` and
 * `fileSearchStores/{id}/documents/{id}` names of the paths. Throws the service's 400.
 */
import { z } from "zod";
import { ApiError } from "./api-error";
import type {
  DocumentOptions,
  FileSearchStoreCreate,
  ImportFileRequest,
} from "./file-search-types";
import { fileNameOfUri } from "./schemas/reference-fields";
import { repeated, wireInteger, wireNumber, wireObject, wireString } from "./schemas/wire";
import { runSchema } from "./validate";

/** The service's display name limit for stores and documents (types.ts: 512 characters). */
const MAX_DISPLAY_NAME = 512;
/** The service's id form: lowercase letters, digits and dashes, at most 40, no dash at an end. */
const RESOURCE_ID = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

const customMetadataSchema = wireObject("CustomMetadata", {
  key: wireString(),
  stringValue: wireString().optional(),
  numericValue: wireNumber().optional(),
  stringListValue: wireObject("StringList", {
    values: repeated(wireString()).optional(),
  }).optional(),
});

const chunkingConfigSchema = wireObject("ChunkingConfig", {
  whiteSpaceConfig: wireObject("WhiteSpaceConfig", {
    maxTokensPerChunk: wireInteger().optional(),
    maxOverlapTokens: wireInteger().optional(),
  }).optional(),
});

const documentFields = {
  displayName: wireString().optional(),
  customMetadata: repeated(customMetadataSchema).optional(),
  chunkingConfig: chunkingConfigSchema.optional(),
};

const storeCreateSchema = wireObject("FileSearchStore", {
  displayName: wireString().optional(),
  embeddingModel: wireString().optional(),
});

const uploadStartSchema = wireObject("UploadToFileSearchStoreRequest", {
  ...documentFields,
  mimeType: wireString().optional(),
});

const importSchema = wireObject("ImportFileRequest", {
  ...documentFields,
  fileName: wireString(),
});

function checkDisplayName(displayName: string | undefined, field: string): void {
  if (displayName !== undefined && [...displayName].length > MAX_DISPLAY_NAME) {
    throw ApiError.invalidArgument(
      `* ${field}: display_name must be at most ${MAX_DISPLAY_NAME} characters.`,
      [{ field, description: `must be at most ${MAX_DISPLAY_NAME} characters` }],
    );
  }
}

function checkMetadata(options: DocumentOptions, field: string): void {
  if ((options.customMetadata?.length ?? 0) > 20) {
    throw ApiError.invalidArgument(`* ${field}: a Document can have at most 20 custom_metadata.`, [
      { field, description: "at most 20 entries" },
    ]);
  }
}

/** `POST fileSearchStores` body: the FileSearchStore's display name and embedding model. */
export function parseFileSearchStoreCreate(body: unknown): FileSearchStoreCreate {
  const store = runSchema(storeCreateSchema, body ?? {}, {
    requestName: "CreateFileSearchStoreRequest",
    root: ["fileSearchStore"],
  });
  checkDisplayName(store.displayName, "file_search_store.display_name");
  return store;
}

/** The start body of `upload/v1beta/fileSearchStores/{id}:uploadToFileSearchStore`. */
export function parseStoreUploadStart(body: unknown): DocumentOptions {
  const options = runSchema(uploadStartSchema, body ?? {}, {
    requestName: "UploadToFileSearchStoreRequest",
  });
  checkDisplayName(options.displayName, "display_name");
  checkMetadata(options, "custom_metadata");
  return options;
}

/** `fileSearchStores/{id}:importFile` body; the file named as `files/{id}` in any spelling. */
export function parseImportFile(body: unknown): ImportFileRequest {
  const request = runSchema(importSchema, body ?? {}, { requestName: "ImportFileRequest" });
  if (request.fileName.trim() === "") {
    throw ApiError.invalidArgument("* ImportFileRequest.file_name: file_name is required.", [
      { field: "file_name", description: "is required" },
    ]);
  }
  checkMetadata(request, "custom_metadata");
  return { ...request, fileName: fileNameOfUri(request.fileName) ?? request.fileName };
}

/** `force` of a delete's query (`true`/`false`, any case); absent is false. */
export function readForce(url: URL): boolean {
  const value = url.searchParams.get("force");
  if (value === null) return false;
  const parsed = z.enum(["true", "false"]).safeParse(value.trim().toLowerCase());
  if (!parsed.success) {
    throw ApiError.invalidArgument(
      `Invalid value at 'force' (TYPE_BOOL), "${value.slice(0, 40)}"`,
      [{ field: "force", description: `Invalid value "${value.slice(0, 40)}"` }],
    );
  }
  return parsed.data === "true";
}

/** True for an id of the service's form (store, document and operation ids). */
export function isResourceId(id: string): boolean {
  return RESOURCE_ID.test(id);
}

/**
 * A new resource id as the service derives one (recorded `genai-test-store` →
 * `genaiteststore-fetnf75lobog`): the display name's lowercase letters and digits, cut to
 * leave room for a dash and 12 random characters; without a display name two random parts
 * (python-genai's recorded tests: `fr3l0ri2so25-a3r1ump9x821`).
 */
export function derivedResourceId(displayName: string | undefined, random: () => string): string {
  const stem = (displayName ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
    .slice(0, 40 - 13);
  return `${stem || random()}-${random()}`;
}

/**
 * The ids of a store path (`fileSearchStores/{id}`, `.../documents/{id}`): one not of the
 * service's form is its 400 INVALID_ARGUMENT (python-genai's recorded tests), before any lookup.
 */
export function checkResourceIds(name: string): string {
  const segments = name.split("/");
  const ids = segments.filter((_, index) =>
    ["fileSearchStores", "documents", "operations"].includes(segments[index - 1] ?? ""),
  );
  if (!ids.every(isResourceId)) {
    throw ApiError.invalidArgument(`Invalid resource name "${name.slice(0, 200)}".`, [
      { field: "name", description: "ids are lowercase letters, digits and dashes, at most 40" },
    ]);
  }
  return name;
}
