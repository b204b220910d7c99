import { sql, type Kysely } from 'kysely';
import type {
  GrantExchange,
  GrantRevocationReason,
  RefreshTokenBrief,
  RefreshTokenInFamily,
} from '../primitives/records.js';
import { grantFromRow, refreshTokenFromRow } from './rows.js';
import type { Repository } from './repository.js';
import type { Database } from './schema.js';

/**
 * The queries every token request runs (and the REST API's insert, once per 201; an OpenID refresh's
 * read of its user), each defined once, here. The repository runs them through Kysely; the SQLite
 * store compiles each once and prepares the compiled SQL (`sqlite/hot-queries.ts`), which saves
 * building, compiling and preparing a query on every call — together most of a refresh's CPU time.
 * A query takes its parameters as one object, so that it can be compiled with placeholders in their
 * place.
 */
export const tokenPathQueries = {
  findClient: (db: Kysely<Database>, p: { id: string }) => db.selectFrom('clients').selectAll().where('id', '=', p.id),

  findGrant: (db: Kysely<Database>, p: { id: string }) => db.selectFrom('grants').selectAll().where('id', '=', p.id),

  findGrantLiveness: (db: Kysely<Database>, p: { id: string }) =>
    db.selectFrom('grants').select(['revoked_at', 'subject']).where('id', '=', p.id),

  /** The token with its grant; `lockRows` locks both rows for the transaction (PostgreSQL). */
  findRefreshToken: (db: Kysely<Database>, p: { id: string }, lockRows = false) =>
    db
      .selectFrom('refresh_tokens as t')
      .innerJoin('grants as g', 'g.id', 't.grant_id')
      .select(['t.id as t_id', 't.grant_id', 't.use_count', 't.issued_at', 't.expires_at as t_expires_at'])
      .select([
        'g.id',
        'g.client_id',
        'g.subject',
        'g.scope',
        'g.created_at',
        'g.expires_at',
        'g.rotation_count',
        'g.head_token_id',
        'g.previous_token_id',
        'g.revoked_at',
        'g.revoked_reason',
        'g.rotated_at',
        'g.dpop_jkt',
        // A token exchange's grant: the `act` and audience of its access tokens (0024), on the same read.
        'g.exchange',
        'g.parent_grant_id',
        // The organization chosen at /authorize (0031): every refresh's tokens carry it.
        'g.organization_id',
      ])
      .where('t.id', '=', p.id)
      .$if(lockRows, (q) => q.forUpdate()),

  /**
   * A token's state with its grant's (`RefreshTokenBrief`): 13 columns where `findRefreshToken` reads
   * 21, for a reader that neither changes the family nor issues from it.
   */
  findRefreshTokenBrief: (db: Kysely<Database>, p: { id: string }) =>
    db
      .selectFrom('refresh_tokens as t')
      .innerJoin('grants as g', 'g.id', 't.grant_id')
      .select(['t.id', 't.use_count', 't.issued_at', 't.expires_at as t_expires_at'])
      .select([
        'g.client_id',
        'g.subject',
        'g.scope',
        'g.expires_at',
        'g.rotation_count',
        'g.head_token_id',
        'g.previous_token_id',
        'g.revoked_at',
        'g.rotated_at',
        'g.exchange',
      ])
      .where('t.id', '=', p.id),

  /**
   * Revokes unless already revoked (with `reason`), and with it, in the same statement, the grants
   * token exchanges made from it and from those, to any depth (`parent_grant_id`, 0024; with
   * `descendantReason`): the rows returned are the grants this call revoked. (A child is never live
   * under a revoked parent: an exchange needs a live subject token.)
   */
  revokeGrant: (
    db: Kysely<Database>,
    p: { id: string; reason: GrantRevocationReason; descendantReason: GrantRevocationReason; now: number },
  ) =>
    db
      .updateTable('grants')
      .set({
        revoked_at: p.now,
        revoked_reason: sql<string>`case when id = ${p.id} then cast(${p.reason} as text) else cast(${p.descendantReason} as text) end`,
      })
      .where('revoked_at', 'is', null)
      .where(
        'id',
        'in',
        sql<string>`(with recursive family(id) as (select ${p.id} union select g.id from grants g join family f on g.parent_grant_id = f.id) select id from family)`,
      )
      .returning(['id', 'client_id', 'subject']),

  updateGrantFamily: (
    db: Kysely<Database>,
    p: {
      id: string;
      rotationCount: number;
      headTokenId: string | null;
      previousTokenId: string | null;
      rotatedAt: number | null;
    },
  ) =>
    db
      .updateTable('grants')
      .set({
        rotation_count: p.rotationCount,
        head_token_id: p.headTokenId,
        previous_token_id: p.previousTokenId,
        rotated_at: p.rotatedAt,
      })
      .where('id', '=', p.id),

  insertRefreshToken: (
    db: Kysely<Database>,
    p: { id: string; grantId: string; useCount: number; issuedAt: number; expiresAt: number },
  ) =>
    db.insertInto('refresh_tokens').values({
      id: p.id,
      grant_id: p.grantId,
      use_count: p.useCount,
      issued_at: p.issuedAt,
      expires_at: p.expiresAt,
    }),

  updateRefreshToken: (db: Kysely<Database>, p: { id: string; useCount: number; expiresAt: number }) =>
    db.updateTable('refresh_tokens').set({ use_count: p.useCount, expires_at: p.expiresAt }).where('id', '=', p.id),

  /**
   * Notes a refresh of a grant made by an OpenID Connect sign-in and reads that sign-in (its time and
   * methods), in one statement; no row for any other grant.
   */
  touchGrantUse: (db: Kysely<Database>, p: { id: string; now: number }) =>
    db
      .updateTable('grant_authentications')
      .set({ last_used_at: p.now })
      .where('grant_id', '=', p.id)
      .returning(['auth_time', 'amr']),

  /** A user by its subject: an OpenID grant's refresh reads it for the ID token's claims (OIDC Core §12.2). */
  findUserBySubject: (db: Kysely<Database>, p: { subject: string }) =>
    db.selectFrom('users').selectAll().where('subject', '=', p.subject),

  /** A DPoP proof seen (dpop-repository.ts): a new id is inserted, one noted before changes nothing. */
  noteDpopProof: (db: Kysely<Database>, p: { id: string; expiresAt: number }) =>
    db
      .insertInto('dpop_proofs')
      .values({ id: p.id, expires_at: p.expiresAt })
      .onConflict((oc) => oc.column('id').doNothing()),

  /** `body` is the record's JSON text. */
  insertRecord: (
    db: Kysely<Database>,
    p: {
      collection: string;
      id: string;
      owner: string | null;
      body: string;
      version: number;
      createdAt: number;
      updatedAt: number;
    },
  ) =>
    db.insertInto('records').values({
      collection: p.collection,
      id: p.id,
      owner: p.owner,
      body: p.body,
      version: p.version,
      created_at: p.createdAt,
      updated_at: p.updatedAt,
    }),
};

/** The repository methods that run these queries, compiled once on both dialects (`sqlite/hot-queries.ts`, `postgres/hot-queries.ts`). */
export type TokenPathMethods = Pick<
  Repository,
  | 'findClient'
  | 'findGrant'
  | 'findGrantLiveness'
  | 'findRefreshToken'
  | 'findRefreshTokenBrief'
  | 'insertRefreshToken'
  | 'updateRefreshToken'
  | 'rotateFamily'
  | 'touchGrantUse'
  | 'findUserBySubject'
  | 'insertRecord'
  | 'noteDpopProof'
>;

/** A row of `findRefreshToken`: the token's columns (renamed where they clash) and its grant's. */
export type TokenInFamilyRow = Awaited<
  ReturnType<ReturnType<typeof tokenPathQueries.findRefreshToken>['executeTakeFirstOrThrow']>
>;

export function tokenInFamilyFromRow(row: TokenInFamilyRow): RefreshTokenInFamily {
  const token = refreshTokenFromRow({
    id: row.t_id,
    grant_id: row.grant_id,
    use_count: row.use_count,
    issued_at: row.issued_at,
    expires_at: row.t_expires_at,
  });
  return { token, grant: grantFromRow(row) };
}

/** A row of `findRefreshTokenBrief`. */
export type RefreshTokenBriefRow = Awaited<
  ReturnType<ReturnType<typeof tokenPathQueries.findRefreshTokenBrief>['executeTakeFirstOrThrow']>
>;

export function tokenBriefFromRow(r: RefreshTokenBriefRow): RefreshTokenBrief {
  return {
    token: {
      id: r.id,
      useCount: Number(r.use_count),
      issuedAt: Number(r.issued_at),
      expiresAt: Number(r.t_expires_at),
    },
    grant: {
      clientId: r.client_id,
      subject: r.subject,
      expiresAt: Number(r.expires_at),
      rotationCount: Number(r.rotation_count),
      headTokenId: r.head_token_id,
      previousTokenId: r.previous_token_id,
      revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
      rotatedAt: r.rotated_at === null ? null : Number(r.rotated_at),
      ...(r.exchange == null ? {} : { exchange: JSON.parse(r.exchange) as GrantExchange }),
    },
    scope: r.scope,
  };
}
