import type { Kysely, Selectable } from 'kysely';
import type { Database, RecordsTable } from './schema.js';
import { tokenPathQueries } from './token-path-queries.js';

/** A stored record of a REST collection. */
export interface StoredRecord {
  readonly collection: string;
  readonly id: string;
  /**
   * Whose record it is: the `sub` of the access token that created it. Null when no user created it
   * (a client's own token) or it was created before records had owners (migration 0014).
   */
  readonly owner: string | null;
  readonly body: Readonly<Record<string, unknown>>;
  readonly version: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** The queries of the REST collections. Writes take the version they expect, so a stale write changes nothing. */
export interface RecordRepository {
  insertRecord(record: StoredRecord): Promise<void>;
  findRecord(collection: string, id: string): Promise<StoredRecord | undefined>;
  /**
   * Up to `limit` records after the id `after`, in creation order: those of `owner.owner` only when
   * given, otherwise every record of the collection.
   */
  listRecords(
    collection: string,
    after: string | undefined,
    limit: number,
    owner?: { readonly owner: string },
  ): Promise<StoredRecord[]>;
  /** Replaces the body if the version is still `expectedVersion`; false otherwise. */
  updateRecord(
    collection: string,
    id: string,
    body: Readonly<Record<string, unknown>>,
    expectedVersion: number,
    now: number,
  ): Promise<boolean>;
  /** Deletes if the version is still `expectedVersion`; false otherwise. */
  deleteRecord(collection: string, id: string, expectedVersion: number): Promise<boolean>;
}

function fromRow(r: Selectable<RecordsTable>): StoredRecord {
  return {
    collection: r.collection,
    id: r.id,
    owner: r.owner,
    body: JSON.parse(r.body) as Record<string, unknown>,
    version: Number(r.version),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export function createRecordRepository(db: Kysely<Database>): RecordRepository {
  return {
    async insertRecord(r) {
      await tokenPathQueries.insertRecord(db, { ...r, body: JSON.stringify(r.body) }).execute();
    },
    async findRecord(collection, id) {
      const row = await db
        .selectFrom('records')
        .selectAll()
        .where('collection', '=', collection)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && fromRow(row);
    },
    async listRecords(collection, after, limit, owner) {
      const rows = await db
        .selectFrom('records')
        .selectAll()
        .where('collection', '=', collection)
        .$if(owner !== undefined, (q) => q.where('owner', '=', owner?.owner as string))
        .$if(after !== undefined, (q) => q.where('id', '>', after as string))
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(fromRow);
    },
    async updateRecord(collection, id, body, expectedVersion, now) {
      const result = await db
        .updateTable('records')
        .set({ body: JSON.stringify(body), version: expectedVersion + 1, updated_at: now })
        .where('collection', '=', collection)
        .where('id', '=', id)
        .where('version', '=', expectedVersion)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async deleteRecord(collection, id, expectedVersion) {
      const result = await db
        .deleteFrom('records')
        .where('collection', '=', collection)
        .where('id', '=', id)
        .where('version', '=', expectedVersion)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
