import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Named values the server records for the commands run beside it (`server_settings`). */
export interface SettingsRepository {
  findSetting(name: string): Promise<string | undefined>;
  /** Sets the value, replacing any before. */
  putSetting(name: string, value: string, now: number): Promise<void>;
}

export function createSettingsRepository(db: Kysely<Database>): SettingsRepository {
  return {
    async findSetting(name) {
      const row = await db.selectFrom('server_settings').select('value').where('name', '=', name).executeTakeFirst();
      return row?.value;
    },
    async putSetting(name, value, now) {
      await db
        .insertInto('server_settings')
        .values({ name, value, updated_at: now })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
        .execute();
    },
  };
}
