import { refusedBody, type AccessTokenClaims, type CollectionDeclaration, type HttpMethod } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { ServerContext } from '../context.js';
import { allowOnly } from '../http/method-not-allowed.js';
import { sendProblem } from '../http/problems.js';
import { requireBody } from '../json-api/serve-json-api.js';
import { cursorPosition, pageOf, pageSize } from '../json-api/paging.js';
import { requireRestRole, type OperationRoles } from './operation-roles.js';
import { callerOf, recordAccess, type CollectionPolicy, type RecordAccess, type RecordOperation } from './ownership.js';
import {
  deleteRecord,
  etagOf,
  listRecords,
  newRecord,
  patchRecord,
  readRecord,
  replaceRecord,
  representation,
  type Collection,
} from './records.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Whose records the caller reaches, decided before the body is read (ownership.ts); set on every REST route. */
    recordAccess: RecordAccess;
  }
}

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

type DeclaredCollection = Collection &
  Pick<CollectionDeclaration, 'collectionMethods' | 'itemMethods'> & {
    readonly policy: CollectionPolicy;
    readonly roles: OperationRoles;
  };

/**
 * The routes of one collection, as the OpenAPI document declares them: only the declared
 * operations are served; any other method on the two paths is 405 with `Allow`.
 */
export function collectionRoutes(app: FastifyInstance, context: ServerContext, collection: DeclaredCollection): void {
  const served = (methods: readonly HttpMethod[]): HTTPMethods[] => methods.map((m) => m.toUpperCase());
  registerRoutes(app, context, collection);
  allowOnly(app, `/${collection.name}`, served(collection.collectionMethods));
  allowOnly(app, `/${collection.name}/:id`, served(collection.itemMethods));
}

function registerRoutes(app: FastifyInstance, { store, clock }: ServerContext, collection: DeclaredCollection): void {
  const onCollection = new Set(collection.collectionMethods);
  const onItem = new Set(collection.itemMethods);
  const base = `/${collection.name}`;
  const item = `${base}/:id`;
  // Whose records the caller reaches is decided with the token, before the body is read: a token
  // the collection's rule refuses (owner_required) is refused whatever it sends. Then, only where the
  // operation declares roles (x-required-roles), the caller's user must hold one (operation-roles.ts).
  const decide =
    (operation: RecordOperation, roles: readonly string[] | undefined) =>
    (claims: AccessTokenClaims, request: FastifyRequest): void | Promise<void> => {
      request.recordAccess = recordAccess(collection.policy, callerOf(claims), operation);
      if (roles !== undefined) return requireRestRole(store, claims, roles);
    };
  const on = (where: keyof OperationRoles, method: HttpMethod, operation: RecordOperation) => ({
    scope: `${collection.name}:${operation}`,
    authorize: decide(operation, collection.roles[where][method]),
  });
  const json = { mediaType: 'application/json' };
  const mergePatch = { mediaType: 'application/merge-patch+json' };

  // Not an async function, and a refused body is sent rather than thrown (a throw costs V8 a walk
  // of the stack, and Fastify its error path): most of what a busy API answers is refused at once;
  // only the insert is waited for.
  if (onCollection.has('post'))
    app.post(base, { config: { ...on('collection', 'post', 'write'), ...json } }, (request, reply) => {
      requireBody(request);
      const now = clock.now();
      const checked = collection.validate(request.body);
      // What the error handler would answer for it (http/problems.ts), counted in the metrics alike.
      if (!checked.ok) return void sendProblem(reply, request, refusedBody(checked));
      const record = newRecord(collection, request.recordAccess, checked.value, now);
      return store.insertRecord(record).then(() => {
        reply
          .code(201)
          .header('location', `${request.url.split('?')[0]}/${record.id}`)
          .header('etag', etagOf(record))
          .send(representation(record));
      });
    });
  if (onCollection.has('get'))
    app.get<{ Querystring: Record<string, string | string[] | undefined> }>(
      base,
      { config: on('collection', 'get', 'read') },
      async (request) => {
        const limit = pageSize(request.query.limit);
        const after = cursorPosition(request.query.cursor, (id) => /^[0-9a-z]{12,}$/.test(id));
        const rows = await listRecords(store, collection, request.recordAccess, after, limit + 1);
        return pageOf(rows, limit, (record) => record.id, representation);
      },
    );

  if (onItem.has('get'))
    app.get(item, { config: on('item', 'get', 'read') }, async (request: IdRequest, reply) => {
      const record = await readRecord(store, collection, request.recordAccess, request.params.id);
      return reply.header('etag', etagOf(record)).send(representation(record));
    });
  // PUT replaces and PATCH merges (RFC 7396); both validate the result and write it conditionally.
  const update =
    (operation: typeof replaceRecord | typeof patchRecord) =>
    async (request: IdRequest, reply: FastifyReply): Promise<FastifyReply> => {
      requireBody(request);
      const { id } = request.params;
      const { recordAccess: access } = request;
      const record = await operation(store, collection, access, id, request.body, ifMatchOf(request), clock.now());
      return reply.header('etag', etagOf(record)).send(representation(record));
    };
  if (onItem.has('put')) app.put(item, { config: { ...on('item', 'put', 'write'), ...json } }, update(replaceRecord));
  if (onItem.has('patch'))
    app.patch(item, { config: { ...on('item', 'patch', 'write'), ...mergePatch } }, update(patchRecord));
  if (onItem.has('delete'))
    app.delete(item, { config: on('item', 'delete', 'write') }, async (request: IdRequest, reply) => {
      await deleteRecord(store, collection, request.recordAccess, request.params.id, ifMatchOf(request));
      return reply.code(204).send();
    });
}

function ifMatchOf(request: FastifyRequest): string | undefined {
  const value = request.headers['if-match'];
  return Array.isArray(value) ? value.join(',') : value;
}
