import { sql, type Kysely } from 'kysely';
import type {
  AuthorizationCodeRecord,
  ClientRecord,
  GrantLiveness,
  GrantRecord,
  GrantRevocationReason,
  RefreshTokenBrief,
  RefreshTokenInFamily,
  RefreshTokenRecord,
  SigningKeyRecord,
} from '../primitives/records.js';
import {
  clientFromRow,
  clientToRow,
  codeFromRow,
  codeToRow,
  grantFromRow,
  grantLivenessFromRow,
  grantToRow,
  revokedGrantFromRow,
  signingKeyFromRow,
  type RevokedGrant,
} from './rows.js';
import { createIdentityRepository, type IdentityRepository } from './identity-repository.js';
import { createOidcRepository, type OidcRepository } from './oidc-repository.js';
import { createAuditRepository, type AuditRepository } from './audit-repository.js';
import { createRecordRepository, type RecordRepository } from './record-repository.js';
import { createDeviceRepository, type DeviceRepository } from './device-repository.js';
import { createSettingsRepository, type SettingsRepository } from './settings-repository.js';
import { createAdminRepository, type AdminRepository } from './admin-repository.js';
import { createRegistrationRepository, type RegistrationRepository } from './registration-repository.js';
import { createFederationRepository, type FederationRepository } from './federation-repository.js';
import { createPasskeyRepository, type PasskeyRepository } from './passkey-repository.js';
import { createPushedRequestRepository, type PushedRequestRepository } from './pushed-request-repository.js';
import { createDpopRepository, type DpopRepository } from './dpop-repository.js';
import { createFactorRepository, type FactorRepository } from './factor-repository.js';
import { createMailRepository, type MailRepository } from './mail-repository.js';
import { createOrganizationRepository, type OrganizationRepository } from './organization-repository.js';
import { createAccountLinkRepository, type AccountLinkRepository } from './account-link-repository.js';
import { createOwnDataRepository, type OwnDataRepository } from './own-data-repository.js';
import type { Database } from './schema.js';
import { createClientMetadataRepository, type ClientMetadataRepository } from './client-metadata-repository.js';
import {
  createClientPresentationRepository,
  type ClientPresentationRepository,
} from './client-presentation-repository.js';
import { tokenBriefFromRow, tokenInFamilyFromRow, tokenPathQueries } from './token-path-queries.js';
import { createGroupRepository, type GroupRepository } from './group-repository.js';
import { createRoleRepository, type RoleRepository } from './role-repository.js';
import {
  createAccessResolutionRepository,
  type AccessResolutionRepository,
  type GrantHolderAccess,
  type HolderAccessRead,
} from './access-resolution.js';

/** Every query the domain needs, dialect-neutral. Inside a transaction, reads that lock rows do. */
export interface Repository
  extends
    RecordRepository,
    IdentityRepository,
    AuditRepository,
    OidcRepository,
    DeviceRepository,
    SettingsRepository,
    AdminRepository,
    RegistrationRepository,
    ClientMetadataRepository,
    ClientPresentationRepository,
    FederationRepository,
    PasskeyRepository,
    PushedRequestRepository,
    DpopRepository,
    FactorRepository,
    MailRepository,
    GroupRepository,
    RoleRepository,
    AccessResolutionRepository,
    OrganizationRepository,
    AccountLinkRepository,
    OwnDataRepository {
  insertClient(client: ClientRecord): Promise<void>;
  findClient(id: string): Promise<ClientRecord | undefined>;
  listClients(): Promise<ClientRecord[]>;
  removeClient(id: string): Promise<boolean>;

  insertGrant(grant: GrantRecord): Promise<void>;
  findGrant(id: string): Promise<GrantRecord | undefined>;
  /** A grant's revocation time and subject; undefined when there is no such grant. Every bearer request asks. */
  findGrantLiveness(id: string): Promise<GrantLiveness | undefined>;
  /**
   * Marks a grant revoked unless it already is, and with it the grants token exchanges hung under it
   * (to any depth), those with `descendantReason` (`reason` when absent). Returns the grants this
   * call revoked, the named one among them when it was live.
   */
  revokeGrant(
    id: string,
    reason: GrantRevocationReason,
    now: number,
    descendantReason?: GrantRevocationReason,
  ): Promise<RevokedGrant[]>;
  /**
   * findGrantLiveness inside a transaction that will hang a child grant (a token exchange's) under
   * it: on PostgreSQL the row is locked FOR SHARE until the transaction ends, so a revocation of it
   * (which locks it FOR UPDATE first) either commits before and is seen, or waits and then sees the
   * child.
   */
  findGrantLivenessForChild(id: string): Promise<GrantLiveness | undefined>;

  insertRefreshToken(token: RefreshTokenRecord): Promise<void>;
  /**
   * A rotation's writes, in this order of effect: the presented token's use counted, its successor
   * inserted (none at the family's last rotation), the family's head moved. One statement where the
   * dialect can (PostgreSQL: one round trip instead of three); the three statements otherwise.
   */
  rotateFamily(rotation: FamilyRotation): Promise<void>;
  /**
   * The token with its grant; locks both rows for the transaction where the dialect needs it.
   * `holderAccess`: the PostgreSQL store also reads, in the same statement, what the grant's user
   * holds (`holder`); the others answer without it, and the caller reads it itself.
   */
  findRefreshToken(
    id: string,
    holderAccess?: HolderAccessRead,
  ): Promise<(RefreshTokenInFamily & { readonly holder?: GrantHolderAccess }) | undefined>;
  updateRefreshToken(id: string, fields: Pick<RefreshTokenRecord, 'useCount' | 'expiresAt'>): Promise<void>;
  /** The token's state with its grant's, and nothing else of the grant; never locks (introspection's read). */
  findRefreshTokenBrief(id: string): Promise<RefreshTokenBrief | undefined>;

  insertAuthorizationCode(code: AuthorizationCodeRecord): Promise<void>;
  findAuthorizationCode(id: string): Promise<AuthorizationCodeRecord | undefined>;
  markAuthorizationCodeUsed(id: string, usedAt: number, grantId: string | null): Promise<void>;

  listSigningKeys(): Promise<SigningKeyRecord[]>;
  /** Inserts a key unless one with its kid exists. */
  insertSigningKey(key: SigningKeyRecord): Promise<void>;
  /** Retires a key: no longer published or accepted. True when this call retired it. */
  retireSigningKey(kid: string, now: number): Promise<boolean>;
  /** Replaces a key's stored private key (sealing it under KEY_ENCRYPTION_KEY). */
  replaceSigningKeyPrivateJwk(kid: string, privateJwk: SigningKeyRecord['privateJwk']): Promise<void>;

  /** A secret every process shares, made by a migration (e.g. `refresh_successor_key`). */
  findServerSecret(name: string): Promise<string | undefined>;
}

/** What `Repository.rotateFamily` writes. */
export interface FamilyRotation {
  readonly token: { readonly id: string } & Pick<RefreshTokenRecord, 'useCount' | 'expiresAt'>;
  readonly successor: RefreshTokenRecord | null;
  readonly grant: { readonly id: string } & Pick<
    GrantRecord,
    'rotationCount' | 'headTokenId' | 'previousTokenId' | 'rotatedAt'
  >;
}

export interface RepositoryOptions {
  /** `SELECT … FOR UPDATE` on locking reads (PostgreSQL); SQLite serialises writers with BEGIN IMMEDIATE instead. */
  readonly lockRows: boolean;
}

/**
 * Every repository on `db`, as one object. Made for each transaction, so made with Object.assign:
 * one object literal of fourteen spreads and the methods below cost V8 about 3 ms per call (measured
 * on Node 20: a batch of the SQLite group commit paid it), Object.assign some 20 µs.
 */
export function createRepository(db: Kysely<Database>, { lockRows }: RepositoryOptions): Repository {
  return combined(
    createRecordRepository(db),
    createIdentityRepository(db),
    createOidcRepository(db),
    createAuditRepository(db),
    createDeviceRepository(db, { lockRows }),
    createSettingsRepository(db),
    createAdminRepository(db),
    createRegistrationRepository(db),
    createClientMetadataRepository(db),
    createClientPresentationRepository(db),
    createFederationRepository(db),
    createPasskeyRepository(db),
    createPushedRequestRepository(db),
    createDpopRepository(db),
    createFactorRepository(db),
    createMailRepository(db, { lockRows }),
    createGroupRepository(db),
    createRoleRepository(db),
    createAccessResolutionRepository(db),
    createOrganizationRepository(db),
    createAccountLinkRepository(db),
    createOwnDataRepository(db),
    ownQueries(db, lockRows),
  );
}

/** Every part's members on one new object, typed as all of them together. */
function combined<Parts extends object[]>(...parts: Parts): AllOf<Parts> {
  return Object.assign({}, ...parts) as AllOf<Parts>;
}
type AllOf<Parts extends unknown[]> = Parts extends [infer First, ...infer Rest] ? First & AllOf<Rest> : unknown;

/** The queries of the token path and of clients, grants, codes and keys. */
function ownQueries(
  db: Kysely<Database>,
  lockRows: boolean,
): Omit<
  Repository,
  | keyof RecordRepository
  | keyof IdentityRepository
  | keyof AuditRepository
  | keyof OidcRepository
  | keyof DeviceRepository
  | keyof SettingsRepository
  | keyof AdminRepository
  | keyof RegistrationRepository
  | keyof ClientMetadataRepository
  | keyof ClientPresentationRepository
  | keyof FederationRepository
  | keyof PasskeyRepository
  | keyof PushedRequestRepository
  | keyof DpopRepository
  | keyof FactorRepository
  | keyof MailRepository
  | keyof GroupRepository
  | keyof RoleRepository
  | keyof AccessResolutionRepository
  | keyof OrganizationRepository
  | keyof AccountLinkRepository
  | keyof OwnDataRepository
> {
  return {
    async insertClient(client) {
      await db.insertInto('clients').values(clientToRow(client)).execute();
    },
    async findClient(id) {
      const row = await tokenPathQueries.findClient(db, { id }).executeTakeFirst();
      return row && clientFromRow(row);
    },
    async listClients() {
      return (await db.selectFrom('clients').selectAll().orderBy('created_at').orderBy('id').execute()).map(
        clientFromRow,
      );
    },
    async removeClient(id) {
      // Token exchanges' grants made from its grants (0024, to any depth) go with them, as its own do.
      await db
        .deleteFrom('grants')
        .where(
          'id',
          'in',
          sql<string>`(with recursive family(id) as (select g.id from grants g join grants p on g.parent_grant_id = p.id where p.client_id = ${id} union select g.id from grants g join family f on g.parent_grant_id = f.id) select id from family)`,
        )
        .execute();
      // Its roles (0028) go too: a client registered later under the same id holds none.
      await db
        .deleteFrom('role_assignments')
        .where('principal_kind', '=', 'client')
        .where('principal_id', '=', id)
        .execute();
      const result = await db.deleteFrom('clients').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async insertGrant(grant) {
      await db.insertInto('grants').values(grantToRow(grant)).execute();
    },
    async findGrantLivenessForChild(id) {
      const row = await db
        .selectFrom('grants')
        .select(['revoked_at', 'subject'])
        .where('id', '=', id)
        .$if(lockRows, (q) => q.forShare())
        .executeTakeFirst();
      return row && grantLivenessFromRow(row);
    },
    async findGrantLiveness(id) {
      const row = await tokenPathQueries.findGrantLiveness(db, { id }).executeTakeFirst();
      return row && grantLivenessFromRow(row);
    },
    async findGrant(id) {
      const row = await tokenPathQueries.findGrant(db, { id }).executeTakeFirst();
      return row && grantFromRow(row);
    },
    async revokeGrant(id, reason, now, descendantReason = reason) {
      // PostgreSQL (read committed): lock the grant first, so that a token exchange hanging a child
      // under it (findGrantLivenessForChild, FOR SHARE) has committed before the recursive update
      // below takes its snapshot: the child is then revoked with it, never left live.
      if (lockRows) await db.selectFrom('grants').select('id').where('id', '=', id).forUpdate().execute();
      const rows = await tokenPathQueries.revokeGrant(db, { id, reason, descendantReason, now }).execute();
      return rows.map(revokedGrantFromRow);
    },
    async insertRefreshToken(token) {
      await tokenPathQueries.insertRefreshToken(db, token).execute();
    },
    async rotateFamily({ token, successor, grant }) {
      await tokenPathQueries.updateRefreshToken(db, token).execute();
      if (successor !== null) await tokenPathQueries.insertRefreshToken(db, successor).execute();
      await tokenPathQueries.updateGrantFamily(db, grant).execute();
    },
    async findRefreshToken(id) {
      const row = await tokenPathQueries.findRefreshToken(db, { id }, lockRows).executeTakeFirst();
      return row && tokenInFamilyFromRow(row);
    },
    async findRefreshTokenBrief(id) {
      const row = await tokenPathQueries.findRefreshTokenBrief(db, { id }).executeTakeFirst();
      return row && tokenBriefFromRow(row);
    },
    async updateRefreshToken(id, fields) {
      await tokenPathQueries
        .updateRefreshToken(db, { id, useCount: fields.useCount, expiresAt: fields.expiresAt })
        .execute();
    },

    async insertAuthorizationCode(code) {
      await db.insertInto('authorization_codes').values(codeToRow(code)).execute();
    },
    async findAuthorizationCode(id) {
      const row = await db
        .selectFrom('authorization_codes')
        .selectAll()
        .where('id', '=', id)
        .$if(lockRows, (q) => q.forUpdate())
        .executeTakeFirst();
      return row && codeFromRow(row);
    },
    async markAuthorizationCodeUsed(id, usedAt, grantId) {
      await db
        .updateTable('authorization_codes')
        .set({ used_at: usedAt, grant_id: grantId })
        .where('id', '=', id)
        .execute();
    },

    async listSigningKeys() {
      return (
        await db.selectFrom('signing_keys').selectAll().orderBy('created_at', 'desc').orderBy('kid').execute()
      ).map(signingKeyFromRow);
    },
    async insertSigningKey(key) {
      await db
        .insertInto('signing_keys')
        .values({
          kid: key.kid,
          alg: key.alg,
          private_jwk: JSON.stringify(key.privateJwk),
          public_jwk: JSON.stringify(key.publicJwk),
          created_at: key.createdAt,
          activates_at: key.activatesAt,
          retired_at: key.retiredAt,
        })
        .onConflict((oc) => oc.column('kid').doNothing())
        .execute();
    },
    async retireSigningKey(kid, now) {
      const result = await db
        .updateTable('signing_keys')
        .set({ retired_at: now })
        .where('kid', '=', kid)
        .where('retired_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async replaceSigningKeyPrivateJwk(kid, privateJwk) {
      await db
        .updateTable('signing_keys')
        .set({ private_jwk: JSON.stringify(privateJwk) })
        .where('kid', '=', kid)
        .execute();
    },

    async findServerSecret(name) {
      const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst();
      return row?.value;
    },
  };
}

/**
 * Repositories for per-transaction executors (a PostgreSQL transaction's connection, a SQLite group
 * commit's batch): the token path's queries at once and every other member built on first use, so
 * that the whole repository (`createRepository`, some 200 closures copied onto one object) is made
 * only for a transaction that uses one of them. A refresh or a REST write uses the token path's
 * alone; making the whole repository for each was 13–66 µs a transaction on a loaded machine
 * (2026-11-30). `members` names every member of the repository (those of one made once, at the
 * store's start); `shared` are members that serve every executor (statements prepared once), kept on
 * the prototype all transactions share; `ownMembers` those each transaction is given (`own`, queries
 * compiled once and bound to its connection).
 */
export function lazyRepositories<E>(
  build: (executor: E) => Repository,
  members: readonly string[],
  ownMembers: readonly string[],
  shared: Partial<Repository> = {},
): (executor: E, own?: Partial<Repository>) => Repository {
  const executorOf = Symbol('executor');
  const builtOf = Symbol('built');
  type Lazy = { [executorOf]: E; [builtOf]?: Repository } & Record<string, unknown>;
  // An accessor per member neither shared nor own (an own property set over an inherited getter would throw).
  const prototype = Object.assign(Object.create(null) as object, shared);
  const given = new Set([...ownMembers, ...Object.keys(shared)]);
  for (const member of members) {
    if (given.has(member)) continue;
    Object.defineProperty(prototype, member, {
      enumerable: true,
      get(this: Lazy) {
        const built = (this[builtOf] ??= build(this[executorOf]));
        return (built as unknown as Record<string, unknown>)[member];
      },
    });
  }
  return (executor, own) => {
    const tx = Object.create(prototype) as Lazy;
    tx[executorOf] = executor;
    return (own === undefined ? tx : Object.assign(tx, own)) as unknown as Repository;
  };
}
