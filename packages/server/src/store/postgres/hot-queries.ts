import { CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import { queryTemplate, type QueryTemplate } from '../query-template.js';
import { amrFromColumn, clientFromRow, grantFromRow, grantLivenessFromRow } from '../rows.js';
import type { Database } from '../schema.js';
import { userFromRow } from '../identity-repository.js';
import {
  tokenBriefFromRow,
  tokenInFamilyFromRow,
  tokenPathQueries,
  type TokenPathMethods,
} from '../token-path-queries.js';
import { lockedReadCall, rotateCall, rotateWithSuccessorCall } from './token-path-functions.js';
import { holderAccessFromRow, holderAccessQuery } from './holder-access.js';
import { heldAccessFromRows, heldAccessQuery, type CachedHeldAccess } from '../access-resolution.js';

/**
 * The token hot path's queries (`../token-path-queries.ts`, the same definitions the repository
 * runs) compiled by Kysely once, when the store opens, rather than built and compiled on every
 * call: per refresh that was about a fifth of a PostgreSQL process's CPU (bench refresh-pg profile,
 * docs/performance.md). The SQL is sent as node-postgres sends any query, an unnamed statement with
 * its parameters, so a transaction-pooling PgBouncer sees nothing new (no named prepared
 * statement). A refresh's transaction's two statements, the locked read and the rotation, are calls
 * of migration 0039's functions, whose plans PostgreSQL keeps for the session
 * (./token-path-functions.ts).
 *
 * Returns the queries on an executor: the pool, or a transaction (`lockRows`: the token's read
 * locks its rows, as `Repository.findRefreshToken` does in a transaction). `heldAccess`: the
 * store's groups and roles kept under the row epoch, which a refresh's locked read reads
 * (./holder-access.ts).
 */
export function postgresHotQueries(db: Kysely<Database>, heldAccess: CachedHeldAccess): PostgresHotQueries {
  const q = tokenPathQueries;
  const t = {
    findClient: queryTemplate(db, q.findClient),
    findGrant: queryTemplate(db, q.findGrant),
    findGrantLiveness: queryTemplate(db, q.findGrantLiveness),
    findRefreshToken: queryTemplate(db, (d, p: { id: string }) => q.findRefreshToken(d, p, false)),
    findRefreshTokenBrief: queryTemplate(db, q.findRefreshTokenBrief),
    findRefreshTokenLocked: queryTemplate(db, (d, p: { id: string }) => q.findRefreshToken(d, p, true)),
    findRefreshTokenWithHolder: queryTemplate(db, (d, p: { id: string }) => holderAccessQuery(d, p, false)),
    // The transaction's two statements, through the functions of migration 0039 (./token-path-functions.ts).
    findRefreshTokenWithHolderLocked: lockedReadCall,
    heldAccess: queryTemplate(db, heldAccessQuery),
    insertRefreshToken: queryTemplate(db, q.insertRefreshToken),
    updateRefreshToken: queryTemplate(db, q.updateRefreshToken),
    rotate: rotateCall,
    rotateWithSuccessor: rotateWithSuccessorCall,
    touchGrantUse: queryTemplate(db, q.touchGrantUse),
    findUserBySubject: queryTemplate(db, q.findUserBySubject),
    insertRecord: queryTemplate(db, q.insertRecord),
    noteDpopProof: queryTemplate(db, q.noteDpopProof),
  };

  const on = (executor: Kysely<Database>, lockRows: boolean): TokenPathMethods => {
    const run = <P, O>(template: QueryTemplate<P, O>, p: P) => runTemplate(executor, template, p);
    const first = async <P, O>(template: QueryTemplate<P, O>, p: P): Promise<O | undefined> =>
      (await run(template, p)).rows[0];
    const findToken = lockRows ? t.findRefreshTokenLocked : t.findRefreshToken;
    const findTokenWithHolder = lockRows ? t.findRefreshTokenWithHolderLocked : t.findRefreshTokenWithHolder;
    // On the executor, so that in a transaction it waits for no other connection of the pool. An API
    // role's audience is never '', so a null API matches none (../access-resolution.ts).
    const readHeldAccess = async (subject: string, api: string | null) =>
      heldAccessFromRows((await run(t.heldAccess, { subject, audience: api ?? '' })).rows);
    return {
      async findClient(id) {
        const row = await first(t.findClient, { id });
        return row && clientFromRow(row);
      },
      async findGrant(id) {
        const row = await first(t.findGrant, { id });
        return row && grantFromRow(row);
      },
      async findGrantLiveness(id) {
        const row = await first(t.findGrantLiveness, { id });
        return row && grantLivenessFromRow(row);
      },
      async findRefreshToken(id, holderAccess) {
        if (holderAccess !== undefined) {
          const row = await first(findTokenWithHolder, { id });
          return row && holderAccessFromRow(row, holderAccess.api, heldAccess, readHeldAccess);
        }
        const row = await first(findToken, { id });
        return row && tokenInFamilyFromRow(row);
      },
      async findRefreshTokenBrief(id) {
        const row = await first(t.findRefreshTokenBrief, { id });
        return row && tokenBriefFromRow(row);
      },
      async insertRefreshToken(token) {
        await run(t.insertRefreshToken, token);
      },
      async updateRefreshToken(id, { useCount, expiresAt }) {
        await run(t.updateRefreshToken, { id, useCount, expiresAt });
      },
      async rotateFamily({ token, successor, grant }) {
        const rotation = {
          tokenId: token.id,
          useCount: token.useCount,
          expiresAt: token.expiresAt,
          grantId: grant.id,
          rotationCount: grant.rotationCount,
          headTokenId: grant.headTokenId,
          previousTokenId: grant.previousTokenId,
          rotatedAt: grant.rotatedAt,
        };
        if (successor === null) await run(t.rotate, rotation);
        else
          await run(t.rotateWithSuccessor, {
            ...rotation,
            successorId: successor.id,
            successorGrantId: successor.grantId,
            successorUseCount: successor.useCount,
            successorIssuedAt: successor.issuedAt,
            successorExpiresAt: successor.expiresAt,
          });
      },
      async touchGrantUse(id, now) {
        const row = await first(t.touchGrantUse, { id, now });
        return row && { authTime: Number(row.auth_time), amr: amrFromColumn(row.amr) };
      },
      async findUserBySubject(subject) {
        const row = await first(t.findUserBySubject, { subject });
        return row && userFromRow(row);
      },
      async insertRecord(r) {
        await run(t.insertRecord, { ...r, body: JSON.stringify(r.body) });
      },
      async noteDpopProof(id, expiresAt) {
        const result = await run(t.noteDpopProof, { id, expiresAt });
        return Number(result.numAffectedRows ?? 0n) > 0;
      },
    };
  };
  // The rotation answers nothing a caller reads: a transaction sends it with its COMMIT (./pool.ts).
  return Object.assign(on, { writeBehind: [t.rotate.sql, t.rotateWithSuccessor.sql] });
}

/** The queries on an executor, and the SQL of those a pipelined transaction holds back (./pool.ts). */
export type PostgresHotQueries = ((executor: Kysely<Database>, lockRows: boolean) => TokenPathMethods) & {
  readonly writeBehind: readonly string[];
};

/** Runs a query compiled once on `executor` (the pool or a transaction), with `p`'s values. */
export function runTemplate<P, O>(
  executor: Kysely<Database>,
  template: QueryTemplate<P, O>,
  p: P,
): Promise<QueryResult<O>> {
  return executor.executeQuery<O>(CompiledQuery.raw(template.sql, template.parameters(p)));
}
