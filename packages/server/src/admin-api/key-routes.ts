import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { cursorPosition, pageOf, pageSize } from '../json-api/paging.js';
import type { ServerContext } from '../context.js';
import { describeKeys, retireSigningKey, rotateSigningKeys } from '../oauth/keys/index.js';
import type { AdminAccess } from './caller.js';
import { queryValue, type Query } from './query.js';

/**
 * /keys: the signing keys, their rotation and retirement (oauth/keys/key-administration.ts). After a
 * change this process reloads its keys at once; the others do within a minute.
 */
export function keyRoutes(
  app: FastifyInstance,
  { store, audit, clock, keys }: ServerContext,
  access: AdminAccess,
): void {
  app.get<{ Querystring: Query }>('/keys', { config: access.read }, async (request) => {
    const limit = pageSize(request.query.limit);
    const all = describeKeys(await store.listSigningKeys(), clock.now());
    const kidOf = (key: Record<string, unknown>): string => key['kid'] as string;
    const after = cursorPosition(request.query.cursor, (kid) => all.some((k) => kidOf(k) === kid));
    const start = after === undefined ? 0 : all.findIndex((k) => kidOf(k) === after) + 1;
    return pageOf(all.slice(start, start + limit + 1), limit, kidOf, (k) => k);
  });
  app.post<{ Querystring: Query }>('/keys/rotate', { config: access.write }, async (request, reply) => {
    const now = queryValue(request.query, 'now');
    if (now !== undefined && now !== 'true' && now !== 'false')
      throw new ProblemError('invalid_parameter', 'now must be true or false.');
    const options = { immediately: now === 'true', encryption: keys.encryption };
    const rotated = await rotateSigningKeys(audit, clock.now(), options, request.adminActor);
    await keys.reload();
    const described = describeKeys(await store.listSigningKeys(), clock.now());
    reply.code(201);
    return { keys: described.filter((k) => rotated.some((r) => r.kid === k['kid'])) };
  });
  app.post(
    '/keys/:kid/retire',
    { config: access.write },
    async (request: FastifyRequest<{ Params: { kid: string } }>) => {
      const { kid } = request.params;
      await retireSigningKey(audit, kid, clock.now(), request.adminActor);
      await keys.reload();
      return describeKeys(await store.listSigningKeys(), clock.now()).find((k) => k['kid'] === kid);
    },
  );
}
