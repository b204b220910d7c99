import type { Kysely } from 'kysely';
import type { Repository } from '../repository.js';
import type { Database } from '../schema.js';

const CONNECTION = Symbol('connection');
const BUILT = Symbol('built');

interface OnConnection {
  [CONNECTION]: Kysely<Database>;
  [BUILT]?: Repository;
}

/**
 * The repository a group commit's batch runs on (transactions.ts): the statements prepared once
 * (`hot`, hot-queries.ts) at once, and every other query of `build` on the batch's connection made
 * only when a work of the batch first reads one of them. A batch of REST writes or refreshes runs
 * the prepared statements only, so it no longer builds the whole repository (every part's closures,
 * about 200 members copied onto one object) on each batch: on 2026-11-30 that was 13–200 µs a batch
 * on a loaded machine, and under one request at a time a batch is a request.
 *
 * `members` names every member of a repository (`Object.keys` of one built at start); each one not
 * in `hot` is a getter on a prototype shared by every batch, so a batch allocates one small object.
 */
export function batchRepository(
  hot: Partial<Repository>,
  members: readonly string[],
  build: (connection: Kysely<Database>) => Repository,
): (connection: Kysely<Database>) => Repository {
  const shared: Record<string | symbol, unknown> = { ...hot };
  for (const name of members)
    if (!Object.hasOwn(hot, name))
      Object.defineProperty(shared, name, {
        enumerable: true,
        get(this: OnConnection) {
          const built = (this[BUILT] ??= build(this[CONNECTION]));
          return (built as unknown as Record<string, unknown>)[name];
        },
      });
  return (connection) => {
    const batch = Object.create(shared) as OnConnection;
    batch[CONNECTION] = connection;
    return batch as unknown as Repository;
  };
}
