import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";
import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import type { PresetStore } from "./preset-store";

const settings = (temperature: number): ConversationSettings => ({
  model: "models/gemini-2.5-flash",
  systemInstruction: "",
  generationConfig: { temperature },
  safetySettings: [],
});

describe.each(testDatabaseKinds())("PresetStore ($dialect)", (kind) => {
  let data: TestDatabase;
  let presets: PresetStore;
  beforeEach(async () => {
    data = await kind.open();
    presets = data.stores.presets;
  });
  afterEach(async () => {
    await data.cleanup();
  });

  it("keeps each owner's presets by name, one default at a time", async () => {
    await presets.save(
      "studio",
      { name: "Careful", settings: settings(0.2), isDefault: true },
      1000,
    );
    await presets.save("studio", { name: "Bold", settings: settings(1.5), isDefault: false }, 2000);
    expect((await presets.list("studio")).map((preset) => [preset.name, preset.isDefault])).toEqual(
      [
        ["Bold", false],
        ["Careful", true],
      ],
    );
    // The default moves; the same name replaces its preset.
    await presets.save("studio", { name: "Bold", settings: settings(1.8), isDefault: true }, 3000);
    const listed = await presets.list("studio");
    expect(listed.map((preset) => [preset.name, preset.isDefault])).toEqual([
      ["Bold", true],
      ["Careful", false],
    ]);
    expect(listed[0]).toMatchObject({
      settings: settings(1.8),
      updatedAt: new Date(3000).toISOString(),
    });
    // Another owner sees none of them, and cannot delete them.
    expect(await presets.list("key:alice")).toEqual([]);
    expect(await presets.delete("key:alice", "Bold")).toBe(false);
    expect(await presets.delete("studio", "Bold")).toBe(true);
    expect((await presets.list("studio")).map((preset) => preset.name)).toEqual(["Careful"]);
  });
});
