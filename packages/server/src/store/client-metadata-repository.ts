import type { Kysely } from 'kysely';
import type { ClientRecord } from '../primitives/records.js';
import { clientToRow } from './rows.js';
import type { ClientsTable, Database } from './schema.js';

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
   * Stores the client a document describes and the document: inserts both, or replaces the document
   * and, of the client, only the columns a document fills (`DOCUMENT_COLUMNS`): the client keeps its
   * id, creation time and everything an operator set on it (`clients update`, the admin API), so a
   * refetch neither takes its grants nor resets its policy.
   */
  saveClientIdMetadataDocument(client: ClientRecord, record: ClientIdMetadataDocumentRecord): Promise<void>;
}

/** The columns of `clients` a client ID metadata document fills; the others are the operator's. */
const DOCUMENT_COLUMNS = [
  'name',
  'secret_digest',
  'redirect_uris',
  'grant_types',
  'scope',
  'jwks',
  'jwks_uri',
  'auth_method',
] as const satisfies readonly (keyof ClientsTable)[];

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
      const row = clientToRow(client);
      const { id } = row;
      const fields = Object.fromEntries(DOCUMENT_COLUMNS.map((column) => [column, row[column]]));
      await db
        .insertInto('clients')
        .values(row)
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
