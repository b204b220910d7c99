import { sql, type Kysely } from 'kysely';
import type { QueryTemplate } from '../query-template.js';
import { ROW_EPOCH, ROW_EPOCH_TABLE } from '../row-cache.js';
import type { TokenInFamilyRow } from '../token-path-queries.js';
import type { RotationParameters, SuccessorParameters } from './rotation.js';

/** 0039's functions: a refresh's locked read and its rotation, whose plans each session keeps. */
export const LOCKED_READ_FUNCTION = 'refresh_token_locked_read';
export const ROTATE_FUNCTION = 'refresh_token_rotate';

/**
 * Migration 0039: the refresh's two statements of its transaction — the locked read of the token
 * with its grant and its holder's organization and row epoch (./holder-access.ts), and the rotation
 * (./rotation.ts) — as PL/pgSQL functions. A statement sent unnamed is parsed and planned at every
 * call; PL/pgSQL keeps the plans of its statements for the session (PostgreSQL, "PL/pgSQL Plan
 * Caching"), as a named prepared statement would be kept, while the call itself is an unnamed
 * statement that a transaction-pooling PgBouncer before 1.21 passes (docs/deployment.md, PgBouncer).
 * Each reads and writes exactly the rows the statement it replaces did, and decides nothing; a
 * later change of either is a migration that replaces the function (released migrations are never
 * edited). Measured: the backends' CPU a refresh 0.81× (median of seven rounds, docs/performance.md).
 * `#variable_conflict use_column`: a column named like an output column is the column.
 */
export async function createTokenPathFunctions(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create function ${LOCKED_READ_FUNCTION}(p_id text)
  returns table (t_id text, grant_id text, use_count integer, issued_at bigint, t_expires_at bigint,
    id text, client_id text, subject text, scope text, created_at bigint, expires_at bigint,
    rotation_count integer, head_token_id text, previous_token_id text, revoked_at bigint,
    revoked_reason text, rotated_at bigint, dpop_jkt text, exchange text, parent_grant_id text,
    organization_id text, epoch bigint, organization json)
  language plpgsql set search_path from current as $$
#variable_conflict use_column
begin
  return query select t.id, t.grant_id, t.use_count, t.issued_at, t.expires_at,
      g.id, g.client_id, g.subject, g.scope, g.created_at, g.expires_at, g.rotation_count,
      g.head_token_id, g.previous_token_id, g.revoked_at, g.revoked_reason, g.rotated_at,
      g.dpop_jkt, g.exchange, g.parent_grant_id, g.organization_id,
      (select e.epoch from ${ROW_EPOCH_TABLE} e where e.name = '${ROW_EPOCH}'),
      (select json_build_object('id', o.id, 'name', o.name, 'roles', m.roles::json)
        from organizations o join organization_members m on m.organization_id = o.id
        where o.id = g.organization_id and m.subject = g.subject)
    from refresh_tokens t join grants g on g.id = t.grant_id
    where t.id = p_id
    for update;
end $$`,
    )
    .execute(db);
  // The successor's insert only when one is given (p_successor_id not null), as rotateWithSuccessor.
  await sql
    .raw(
      `create function ${ROTATE_FUNCTION}(p_token_id text, p_use_count integer, p_expires_at bigint,
    p_grant_id text, p_rotation_count integer, p_head_token_id text, p_previous_token_id text,
    p_rotated_at bigint, p_successor_id text, p_successor_grant_id text, p_successor_use_count integer,
    p_successor_issued_at bigint, p_successor_expires_at bigint)
  returns void language plpgsql set search_path from current as $$
begin
  update refresh_tokens set use_count = p_use_count, expires_at = p_expires_at where id = p_token_id;
  if p_successor_id is not null then
    insert into refresh_tokens (id, grant_id, use_count, issued_at, expires_at)
      values (p_successor_id, p_successor_grant_id, p_successor_use_count, p_successor_issued_at,
        p_successor_expires_at);
  end if;
  update grants set rotation_count = p_rotation_count, head_token_id = p_head_token_id,
      previous_token_id = p_previous_token_id, rotated_at = p_rotated_at
    where id = p_grant_id;
end $$`,
    )
    .execute(db);
}

/** The locked read's row: the token in its family, its holder's row epoch and organization. */
export type LockedReadRow = TokenInFamilyRow & {
  epoch: number | null;
  organization: { id: string; name: string; roles: string[] } | null;
};

/** The locked read through 0039's function (a QueryTemplate, as ./hot-queries.ts runs them). */
export const lockedReadCall: QueryTemplate<{ id: string }, LockedReadRow> = {
  sql: `select * from ${LOCKED_READ_FUNCTION}($1)`,
  parameters: (p) => [p.id],
};

const ROTATE_CALL = `select ${ROTATE_FUNCTION}($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`;
const rotation = (p: RotationParameters): unknown[] => [
  p.tokenId,
  p.useCount,
  p.expiresAt,
  p.grantId,
  p.rotationCount,
  p.headTokenId,
  p.previousTokenId,
  p.rotatedAt,
];

/** A rotation that keeps the presented token, through 0039's function. */
export const rotateCall: QueryTemplate<RotationParameters, unknown> = {
  sql: ROTATE_CALL,
  parameters: (p) => [...rotation(p), null, null, null, null, null],
};

/** A rotation that issues a successor, through 0039's function. */
export const rotateWithSuccessorCall: QueryTemplate<SuccessorParameters, unknown> = {
  sql: ROTATE_CALL,
  parameters: (p) => [
    ...rotation(p),
    p.successorId,
    p.successorGrantId,
    p.successorUseCount,
    p.successorIssuedAt,
    p.successorExpiresAt,
  ],
};
