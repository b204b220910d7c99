import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** An image as fetched and kept to be served from this origin (outbound/images.ts `StoredImage`). */
export interface StoredLogo {
  readonly source: string;
  readonly type: string;
  /** base64 */
  readonly data: string;
  readonly version: string;
}

/** How the pages present a client (0030): what its registration said, and its logo as fetched. */
export interface ClientPresentationRecord {
  readonly clientId: string;
  readonly clientUri?: string;
  readonly policyUri?: string;
  readonly tosUri?: string;
  readonly logoUri?: string;
  /** Its name by language tag (canonical BCP 47), from `client_name#<tag>`. */
  readonly names: Readonly<Record<string, string>>;
  readonly logo?: StoredLogo;
}

export interface ClientPresentationRepository {
  findClientPresentation(clientId: string): Promise<ClientPresentationRecord | undefined>;
  /** Replaces the client's presentation; removes it when `presentation` says nothing. */
  saveClientPresentation(clientId: string, presentation: Omit<ClientPresentationRecord, 'clientId'>): Promise<void>;
}

type StoredMetadata = Omit<ClientPresentationRecord, 'clientId' | 'logo'>;

const isEmpty = (p: Omit<ClientPresentationRecord, 'clientId'>): boolean =>
  p.clientUri === undefined &&
  p.policyUri === undefined &&
  p.tosUri === undefined &&
  p.logoUri === undefined &&
  Object.keys(p.names).length === 0;

export function createClientPresentationRepository(db: Kysely<Database>): ClientPresentationRepository {
  return {
    async findClientPresentation(clientId) {
      const row = await db
        .selectFrom('client_presentations')
        .selectAll()
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const metadata = JSON.parse(row.metadata) as StoredMetadata;
      const logo = row.logo === null ? undefined : (JSON.parse(row.logo) as StoredLogo);
      return { ...metadata, clientId, ...(logo && { logo }) };
    },
    async saveClientPresentation(clientId, presentation) {
      await db.deleteFrom('client_presentations').where('client_id', '=', clientId).execute();
      if (isEmpty(presentation)) return;
      const { logo, ...metadata } = presentation;
      await db
        .insertInto('client_presentations')
        .values({
          client_id: clientId,
          metadata: JSON.stringify(metadata),
          logo: logo === undefined ? null : JSON.stringify(logo),
        })
        .execute();
    },
  };
}
