import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { cursorPosition, pageOf, pageSize } from '../json-api/paging.js';
import type { StoredRecord } from '../store/record-repository.js';
import type { AdminAccess } from './caller.js';
import type { Query } from './query.js';

/**
 * /collections/{collection}/records: every record of a REST collection, whoever owns it, with its
 * owner (docs/rest-api.md, "Whose records"), read-only. `collections` are the names the REST API's document
 * declares, passed in by the app (admin-api/ imports nothing from api/); any other is 404.
 */
export function recordRoutes(
  app: FastifyInstance,
  { store }: Pick<ServerContext, 'store'>,
  collections: ReadonlySet<string>,
  access: AdminAccess,
): void {
  app.get<{ Params: { collection: string }; Querystring: Query }>(
    '/collections/:collection/records',
    { config: access.read },
    async (request) => {
      const { collection } = request.params;
      if (!collections.has(collection))
        throw new ProblemError('not_found', `The REST API declares no collection '${collection}'.`);
      const limit = pageSize(request.query.limit);
      const after = cursorPosition(request.query.cursor, (id) => /^[0-9a-z]{12,}$/.test(id));
      const rows = await store.listRecords(collection, after, limit + 1);
      return pageOf(rows, limit, (record) => record.id, describeRecord);
    },
  );
}

const iso = (t: number): string => new Date(t * 1000).toISOString();

function describeRecord(record: StoredRecord): Record<string, unknown> {
  return {
    id: record.id,
    owner: record.owner,
    version: record.version,
    created_at: iso(record.createdAt),
    updated_at: iso(record.updatedAt),
    body: record.body,
  };
}
