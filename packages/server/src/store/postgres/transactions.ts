import { CompiledQuery, type Kysely } from 'kysely';
import { createRepository, lazyRepositories, type Repository } from '../repository.js';
import type { Database } from '../schema.js';
import { COMMIT_IN_DOUBT_OUTCOMES, type CommitInDoubtOutcome, type Store } from '../store.js';
import { runTransaction } from './errors.js';
import { commitOutcome } from './in-doubt.js';
import { PIPELINED_BEGIN, PIPELINED_BEGUN, type BegunTransaction } from './pool.js';
import type { TokenPathMethods } from '../token-path-queries.js';

// The pool client's pipelined BEGIN, with its time limits, sent with the first statement; BEGUN
// answers what it answered, a BegunTransaction (./pool.ts).
const BEGIN = CompiledQuery.raw(PIPELINED_BEGIN);
const BEGUN = CompiledQuery.raw(PIPELINED_BEGUN);
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/**
 * `Store.transaction` on PostgreSQL: READ COMMITTED with row locks (`SELECT … FOR UPDATE`), tried
 * again on a serialization failure, a deadlock, or a connection lost before the COMMIT; a connection
 * lost during the COMMIT is settled by asking the database what became of it (errors.ts, in-doubt.ts).
 * Begun and ended here rather than by Kysely's `transaction()`, which does not hand out what `begin`
 * answers: the transaction's id.
 */
export function postgresTransactions(
  db: Kysely<Database>,
  hot: (executor: Kysely<Database>, lockRows: boolean) => TokenPathMethods,
): Pick<Store, 'transaction' | 'commitsInDoubt'> {
  // The repository on a transaction's connection: the token path's queries, the rest built when first used.
  const ownMembers = Object.keys(hot(db, true));
  const repositoryOn = lazyRepositories(
    (connection: Kysely<Database>) => createRepository(connection, { lockRows: true }),
    Object.keys(createRepository(db, { lockRows: true })),
    ownMembers,
  );
  const inDoubt = new Map<CommitInDoubtOutcome, number>(COMMIT_IN_DOUBT_OUTCOMES.map((outcome) => [outcome, 0]));
  const settle = async (begun: BegunTransaction) => {
    const outcome = await commitOutcome(db as Kysely<unknown>, begun);
    inDoubt.set(outcome, (inDoubt.get(outcome) ?? 0) + 1);
    return outcome;
  };
  const transaction = <T>(work: (tx: Repository) => Promise<T>) =>
    runTransaction<BegunTransaction, T>(
      (committing) =>
        db.connection().execute(async (connection) => {
          // Sent with the transaction's first statement (one round trip for both); its failure is that
          // statement's too, so the work sees it.
          await connection.executeQuery(BEGIN);
          let result: T;
          try {
            // The token path's queries compiled once (./hot-queries.ts), its rotation one statement,
            // held back and sent with the COMMIT: a refresh's transaction is two round trips.
            result = await work(repositoryOn(connection, hot(connection, true)));
          } catch (error) {
            await connection.executeQuery(ROLLBACK);
            throw error;
          }
          // A transaction that sent no statement has no id yet: a lost COMMIT of it is 'unknown'.
          const [begun] = (await connection.executeQuery<BegunTransaction>(BEGUN)).rows;
          committing({ begun: begun ?? { xid: '', life: '' }, result });
          await connection.executeQuery(COMMIT);
          return result;
        }),
      settle,
    );
  return { transaction, commitsInDoubt: () => inDoubt };
}
