import type { Kysely } from 'kysely';
import { createRepository } from '../repository.js';
import type { Database } from '../schema.js';
import type { Store } from '../store.js';
import { runTransaction } from './errors.js';

/**
 * `Store.transaction` on PostgreSQL: READ COMMITTED with row locks (`SELECT … FOR UPDATE`), tried
 * again on a serialization failure, a deadlock, or a connection lost before the COMMIT (errors.ts).
 */
export function postgresTransactions(db: Kysely<Database>): Store['transaction'] {
  return (work) =>
    runTransaction((committing) =>
      db.transaction().execute(async (trx) => {
        const result = await work(createRepository(trx, { lockRows: true }));
        committing();
        return result;
      }),
    );
}
