import { describe, expect, it } from "vitest";
import type { StoredMessage } from "./conversation-schema";
import { buildTree, currentPath, pathTo, versionsOf, withSelected } from "./conversation-tree";

function node(id: string, parentId: string | null, selectedChildId?: string): StoredMessage {
  return {
    id,
    parentId,
    role: id.startsWith("u") ? "user" : "model",
    content: { parts: [{ text: id }] },
    ...(selectedChildId ? { selectedChildId } : {}),
  };
}

// u1 ─ a1 ─ u2 ─ a2
//   └─ a1b        └ a2b
// u1b ─ a3
const messages = [
  node("u1", null, "a1"),
  node("a1", "u1", "u2"),
  node("u2", "a1", "a2b"),
  node("a2", "u2"),
  node("a1b", "u1"),
  node("a2b", "u2"),
  node("u1b", null, "a3"),
  node("a3", "u1b"),
];

describe("conversation tree", () => {
  it("follows the chosen replies from the chosen first message", () => {
    const ids = (list: StoredMessage[]) => list.map((message) => message.id);
    expect(ids(currentPath({ messages, selectedRootId: "u1" }))).toEqual(["u1", "a1", "u2", "a2b"]);
    expect(ids(currentPath({ messages, selectedRootId: "u1b" }))).toEqual(["u1b", "a3"]);
    // Without a choice, the newest reply.
    expect(ids(currentPath({ messages }))).toEqual(["u1b", "a3"]);
    expect(ids(pathTo(buildTree(messages), "a2"))).toEqual(["u1", "a1", "u2", "a2"]);
    expect(currentPath({ messages: [] })).toEqual([]);
  });

  it("numbers versions among siblings and switches keeping the branch below", () => {
    const tree = buildTree(messages);
    expect(versionsOf(tree, tree.byId.get("a1")!)).toEqual({
      index: 1,
      count: 2,
      previousId: undefined,
      nextId: "a1b",
    });
    expect(versionsOf(tree, tree.byId.get("u1b")!)).toMatchObject({ index: 2, count: 2 });
    const switched = withSelected({ messages, selectedRootId: "u1b" }, "u1");
    expect(currentPath(switched).map((message) => message.id)).toEqual(["u1", "a1", "u2", "a2b"]);
    const deeper = withSelected(switched, "a2");
    expect(currentPath(deeper).map((message) => message.id)).toEqual(["u1", "a1", "u2", "a2"]);
  });

  it("survives a loop or a missing parent", () => {
    const looped = [node("x", "y", "y"), node("y", "x", "x")];
    expect(currentPath({ messages: looped })).toEqual([]);
    const orphan = [node("u1", "gone")];
    expect(currentPath({ messages: orphan }).map((message) => message.id)).toEqual(["u1"]);
  });
});
