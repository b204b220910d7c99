import type { Kysely } from 'kysely';
import { createRepository } from '../repository.js';
import type { Database } from '../schema.js';
import type { Store } from '../store.js';
import { withRetries } from './errors.js';

/**
 * `Store.transaction` on PostgreSQL: READ COMMITTED with row locks (`SELECT … FOR UPDATE`), tried
 * again on a serialization failure or a deadlock (errors.ts).
 */
export function postgresTransactions(db: Kysely<Database>): Store['transaction'] {
  return (work) =>
    withRetries(() => db.transaction().execute((trx) => work(createRepository(trx, { lockRows: true }))));
}
