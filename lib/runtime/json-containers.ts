/**
 * Large JSON arrays and objects built a member at a time, as JSON.parse builds them: the
 * readers that take JSON apart (json-parse-in-slices.ts, json-pieces.ts) put the members of a
 * large container in one by one, with other work in between.
 */
import { isArrayIndexKey, recordOwnKeys } from "@/lib/gemini/own-keys";

/** An open container and, for an object, the key of the member that comes next. */
export type ContainerFrame =
  | { kind: "array"; value: unknown[] }
  | {
      kind: "object";
      value: Record<string, unknown>;
      key: string;
      /** Its keys in Object.keys order, while that is insertion order (see own-keys.ts). */
      keys: string[] | undefined;
    };

export function openContainer(kind: ContainerFrame["kind"]): ContainerFrame {
  return kind === "array"
    ? { kind: "array", value: [] }
    : { kind: "object", value: {}, key: "", keys: [] };
}

/** Adds a member: an array's next item, or an object's member under `key`. */
export function addMember(frame: ContainerFrame, key: string, value: unknown): void {
  if (frame.kind === "array") {
    frame.value.push(value);
    return;
  }
  if (frame.keys) {
    if (isArrayIndexKey(key) || Object.prototype.hasOwnProperty.call(frame.value, key))
      frame.keys = undefined;
    else frame.keys.push(key);
  }
  assign(frame.value, key, value);
}

/** Adds the members of `batch`, a whole array or object read at once, in order. */
export function addMembers(frame: ContainerFrame, batch: unknown): void {
  if (frame.kind === "array") for (const item of batch as unknown[]) frame.value.push(item);
  else
    for (const key of Object.keys(batch as object))
      addMember(frame, key, (batch as Record<string, unknown>)[key]);
}

/** A finished container; a large object's key list is recorded for ownKeys. */
export function closeContainer(frame: ContainerFrame): unknown {
  if (frame.kind === "object" && frame.keys) recordOwnKeys(frame.value, frame.keys);
  return frame.value;
}

/** Sets a member as JSON.parse does: `__proto__` becomes an own property, not the prototype. */
function assign(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else object[key] = value;
}
