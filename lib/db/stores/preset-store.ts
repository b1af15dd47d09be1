import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import type { SettingsPreset } from "@/lib/studio/settings-presets";
import type { SqlDatabase } from "../sql-database";

/**
 * Settings presets (migration 20): named chat settings each owner keeps and reuses; at most
 * one per owner is the default that starts their new chats. Every query is scoped by owner.
 */

interface PresetRow {
  name: string;
  settings_json: string;
  is_default: number | string;
  updated_at: number | string;
}

function presetOf(row: PresetRow): SettingsPreset {
  return {
    name: row.name,
    settings: JSON.parse(row.settings_json) as ConversationSettings,
    isDefault: Number(row.is_default) === 1,
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
  };
}

export class PresetStore {
  constructor(private readonly database: SqlDatabase) {}

  /** The owner's presets, by name. */
  async list(ownerId: string): Promise<SettingsPreset[]> {
    const rows = await this.database.all<PresetRow>(
      "SELECT name, settings_json, is_default, updated_at FROM settings_presets WHERE owner_id = ? ORDER BY name",
      [ownerId],
    );
    return rows.map(presetOf);
  }

  /** Stores a preset under its name (replacing one of the same name); the default moves to it when asked. */
  async save(
    ownerId: string,
    preset: { name: string; settings: ConversationSettings; isDefault: boolean },
    now = Date.now(),
  ): Promise<SettingsPreset> {
    return this.database.transaction(async (transaction) => {
      if (preset.isDefault)
        await transaction.run(
          "UPDATE settings_presets SET is_default = 0 WHERE owner_id = ? AND is_default = 1",
          [ownerId],
        );
      await transaction.run(
        `INSERT INTO settings_presets (owner_id, name, settings_json, is_default, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (owner_id, name) DO UPDATE SET settings_json = excluded.settings_json, is_default = excluded.is_default, updated_at = excluded.updated_at`,
        [ownerId, preset.name, JSON.stringify(preset.settings), preset.isDefault ? 1 : 0, now],
      );
      return {
        name: preset.name,
        settings: preset.settings,
        isDefault: preset.isDefault,
        updatedAt: new Date(now).toISOString(),
      };
    });
  }

  /** False when the owner has no preset of that name. */
  async delete(ownerId: string, name: string): Promise<boolean> {
    const result = await this.database.run(
      "DELETE FROM settings_presets WHERE owner_id = ? AND name = ?",
      [ownerId, name],
    );
    return result.changes > 0;
  }
}
