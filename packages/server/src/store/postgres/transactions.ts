import type { Kysely } from 'kysely';
import { createRepository } from '../repository.js';
import type { Database } from '../schema.js';
import type { Store } from '../store.js';
import { runTransaction } from './errors.js';
import { rotateFamilyInOneStatement } from './rotation.js';

/**
 * `Store.transaction` on PostgreSQL: READ COMMITTED with row locks (`SELECT … FOR UPDATE`), tried
 * again on a serialization failure, a deadlock, or a connection lost before the COMMIT (errors.ts).
 */
export function postgresTransactions(db: Kysely<Database>): Store['transaction'] {
  return (work) =>
    runTransaction((committing) =>
      db.transaction().execute(async (trx) => {
        const tx = Object.assign(createRepository(trx, { lockRows: true }), {
          rotateFamily: rotateFamilyInOneStatement(trx),
        });
        const result = await work(tx);
        committing();
        return result;
      }),
    );
}
