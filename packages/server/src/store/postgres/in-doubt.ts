import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { CommitInDoubtOutcome } from '../store.js';
import { isConnectionFailure } from './connection-errors.js';
import { SERVER_LIFE, type BegunTransaction } from './pool.js';

/** How long an answer is waited for: the database up again, the old session ended. */
const PATIENCE_MS = 2000;
const POLL_MS = 50;

/**
 * Asks the database, on another connection, what became of a transaction whose connection dropped
 * during its COMMIT (`pg_xact_status`, PostgreSQL ≥ 13, made for exactly this): `committed` or
 * `aborted`; `in progress` while the old session is still ending, so asked again. The answer is
 * trusted only from the server life the transaction ran in (`SERVER_LIFE`, ./pool.ts): after a
 * crash, a restart or a failover its id may belong to another transaction, and the outcome is
 * `unknown`, as it is when no answer comes within PATIENCE_MS.
 *
 * @see https://www.postgresql.org/docs/current/functions-info.html#FUNCTIONS-PG-SNAPSHOT
 */
export async function commitOutcome(db: Kysely<unknown>, begun: BegunTransaction): Promise<CommitInDoubtOutcome> {
  if (begun.xid === '' || begun.life === '') return 'unknown';
  const deadline = Date.now() + PATIENCE_MS;
  while (Date.now() < deadline) {
    // Unreachable: ask again. Any other error (an id "in the future" after a crash): nothing to learn.
    const status = await statusOf(db, begun).catch((error: unknown) =>
      isConnectionFailure(error) ? undefined : ('unknown' as const),
    );
    if (status !== undefined) return status;
    await sleep(POLL_MS);
  }
  return 'unknown';
}

async function statusOf(
  db: Kysely<unknown>,
  { xid, life }: BegunTransaction,
): Promise<CommitInDoubtOutcome | undefined> {
  const { rows } = await sql<{
    status: string | null;
    life: string;
  }>`select pg_xact_status(${xid}::xid8) as status, ${sql.raw(SERVER_LIFE)} as life`.execute(db);
  const [row] = rows;
  if (row === undefined || row.life !== life) return 'unknown';
  if (row.status === 'committed' || row.status === 'aborted') return row.status;
  // null: too old for the commit log to tell, which a few seconds cannot be; 'in progress': ask again.
  return row.status === null ? 'unknown' : undefined;
}
