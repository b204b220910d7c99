import { CompiledQuery, type Kysely } from 'kysely';
import { createRepository, type Repository } from '../repository.js';
import type { Database } from '../schema.js';
import { COMMIT_IN_DOUBT_OUTCOMES, type CommitInDoubtOutcome, type Store } from '../store.js';
import { runTransaction } from './errors.js';
import { commitOutcome } from './in-doubt.js';
import type { BegunTransaction } from './pool.js';
import type { TokenPathMethods } from '../token-path-queries.js';

// `begin` is the pool client's: with its time limits, answering a BegunTransaction (./pool.ts).
const BEGIN = CompiledQuery.raw('begin');
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
          const [begun] = (await connection.executeQuery<BegunTransaction>(BEGIN)).rows;
          let result: T;
          try {
            // The token path's queries compiled once (./hot-queries.ts), its rotation one statement.
            result = await work(Object.assign(createRepository(connection, { lockRows: true }), hot(connection, true)));
          } catch (error) {
            await connection.executeQuery(ROLLBACK);
            throw error;
          }
          committing({ begun: begun ?? { xid: '', life: '' }, result });
          await connection.executeQuery(COMMIT);
          return result;
        }),
      settle,
    );
  return { transaction, commitsInDoubt: () => inDoubt };
}
