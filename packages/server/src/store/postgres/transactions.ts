import type { Kysely } from 'kysely';
import { createRepository } from '../repository.js';
import type { Database } from '../schema.js';
import type { Store } from '../store.js';
import { runTransaction } from './errors.js';
import type { TokenPathMethods } from '../token-path-queries.js';

/**
 * `Store.transaction` on PostgreSQL: READ COMMITTED with row locks (`SELECT … FOR UPDATE`), tried
 * again on a serialization failure, a deadlock, or a connection lost before the COMMIT (errors.ts).
 */
export function postgresTransactions(
  db: Kysely<Database>,
  hot: (executor: Kysely<Database>, lockRows: boolean) => TokenPathMethods,
): Store['transaction'] {
  return (work) =>
    runTransaction((committing) =>
      db.transaction().execute(async (trx) => {
        // The token path's queries compiled once (./hot-queries.ts), its rotation one statement.
        const tx = Object.assign(createRepository(trx, { lockRows: true }), hot(trx, true));
        const result = await work(tx);
        committing();
        return result;
      }),
    );
}
