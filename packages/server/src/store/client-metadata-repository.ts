import type { Kysely } from 'kysely';
import type { ClientRecord } from '../primitives/records.js';
import { clientToRow } from './rows.js';
import type { Database } from './schema.js';

/** A client's cached client ID metadata document (0019), with when to fetch it again. */
export interface ClientIdMetadataDocumentRecord {
  readonly clientId: string;
  /** The document as fetched. */
  readonly document: Readonly<Record<string, unknown>>;
  readonly fetchedAt: number;
  /** Until then the document is used as is. */
  readonly freshUntil: number;
  /** Until then a stale document is still used while a fresh one is fetched in the background. */
  readonly usableUntil: number;
}

/** The queries of client ID metadata documents: the client row and its document are saved together. */
export interface ClientMetadataRepository {
  findClientIdMetadataDocument(clientId: string): Promise<ClientIdMetadataDocumentRecord | undefined>;
  /**
   * Stores the client a document describes and the document: inserts both, or replaces both (the
   * client keeps its id and creation time, so its grants stay its own).
   */
  saveClientIdMetadataDocument(client: ClientRecord, record: ClientIdMetadataDocumentRecord): Promise<void>;
}

export function createClientMetadataRepository(db: Kysely<Database>): ClientMetadataRepository {
  return {
    async findClientIdMetadataDocument(clientId) {
      const row = await db
        .selectFrom('client_id_metadata_documents')
        .selectAll()
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return (
        row && {
          clientId: row.client_id,
          document: JSON.parse(row.document) as Record<string, unknown>,
          fetchedAt: Number(row.fetched_at),
          freshUntil: Number(row.fresh_until),
          usableUntil: Number(row.usable_until),
        }
      );
    },
    async saveClientIdMetadataDocument(client, record) {
      const { id, created_at: _createdAt, ...fields } = clientToRow(client);
      await db
        .insertInto('clients')
        .values(clientToRow(client))
        .onConflict((oc) => oc.column('id').doUpdateSet(fields))
        .execute();
      const document = {
        document: JSON.stringify(record.document),
        fetched_at: record.fetchedAt,
        fresh_until: record.freshUntil,
        usable_until: record.usableUntil,
      };
      await db
        .insertInto('client_id_metadata_documents')
        .values({ client_id: id, ...document })
        .onConflict((oc) => oc.column('client_id').doUpdateSet(document))
        .execute();
    },
  };
}
