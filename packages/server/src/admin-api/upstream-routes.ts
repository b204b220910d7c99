import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { applyUpstreams, removeUpstream } from '../federation/administration.js';
import { describeProvider, openProvider, type UpstreamProviderInput } from '../federation/providers.js';
import { CALLBACK_PATH } from '../federation/routes.js';
import { readTestSignIn, startTestSignIn, testSignInFailure } from '../federation/test-sign-in.js';
import { UpstreamFailure } from '../federation/upstream-failures.js';
import { validBodyOrThrow } from '../json-api/body-problems.js';
import { requireBody } from '../json-api/serve-json-api.js';
import { isSealed } from '../oauth/keys/index.js';
import type { UpstreamProviderRow } from '../store/federation-repository.js';
import { cursorPosition, pageOf, pageSize } from '../json-api/paging.js';
import type { AdminAccess } from './caller.js';
import { querySearch, type Query } from './query.js';
import type { AdminDefinition } from './definition.js';

/** Whether the upstream's id, display name or issuer holds `search` (lowercased), ignoring case. */
function upstreamMatches(body: Record<string, unknown>, search: string): boolean {
  return [body['id'], body['display_name'], body['issuer']].some(
    (text) => typeof text === 'string' && text.toLowerCase().includes(search),
  );
}

type UpstreamRequest = FastifyRequest<{ Params: { upstream_id: string } }>;
type TestSignInRequest = FastifyRequest<{ Params: { upstream_id: string; test_id: string } }>;

/**
 * /upstreams: federation's upstream OpenID Providers (docs/federation.md), through the same
 * functions as `gatehouse upstreams apply|list|remove` and UPSTREAMS_FILE (federation/administration.ts).
 * A provider is answered without its client secret or private key.
 */
export function upstreamRoutes(
  app: FastifyInstance,
  { store, audit, clock, keys, issuer }: ServerContext,
  { bodies }: AdminDefinition,
  access: AdminAccess,
): void {
  const describe = (row: UpstreamProviderRow): Record<string, unknown> =>
    describeProvider(openProvider(row, keys.encryption), isSealed(JSON.parse(row.credential)));
  // Paged and searched as the other lists are (json-api/paging.ts). Upstreams are configuration, a
  // few per server: read whole from the store (by id) and paged here.
  app.get<{ Querystring: Query }>('/upstreams', { config: access.read }, async (request) => {
    const limit = pageSize(request.query.limit);
    const after = cursorPosition(request.query.cursor, (id) => id !== '');
    const search = querySearch(request.query, 'an upstream id, display name or issuer');
    const described = (await store.listUpstreamProviders())
      .filter((row) => after === undefined || row.id > after)
      .map((row) => ({ id: row.id, body: describe(row) }))
      .filter(({ body }) => search === undefined || upstreamMatches(body, search));
    return pageOf(
      described.slice(0, limit + 1),
      limit,
      (item) => item.id,
      (item) => item.body,
    );
  });
  app.get('/upstreams/:upstream_id', { config: access.read }, async (request: UpstreamRequest) => {
    const row = await store.findUpstreamProvider(request.params.upstream_id);
    if (row === undefined) throw new ProblemError('not_found', `There is no upstream '${request.params.upstream_id}'.`);
    return describe(row);
  });
  app.put('/upstreams/:upstream_id', { config: access.writeJson }, async (request: UpstreamRequest) => {
    requireBody(request);
    const body = validBodyOrThrow(bodies.putUpstream(request.body));
    const id = request.params.upstream_id;
    if (body.id !== undefined && body.id !== id)
      throw new ProblemError('invalid_operator_input', `id: ${JSON.stringify(body.id)} is not the path's '${id}'`);
    const input = { ...body, id } as unknown as UpstreamProviderInput;
    await applyUpstreams(store, audit, [input], clock.now(), keys.encryption, request.adminActor);
    return describe((await store.findUpstreamProvider(id)) as UpstreamProviderRow);
  });
  const providerOrThrow = async (id: string) => {
    const row = await store.findUpstreamProvider(id);
    if (row === undefined) throw new ProblemError('not_found', `There is no upstream '${id}'.`);
    return openProvider(row, keys.encryption);
  };
  // docs/federation.md, "Testing an upstream": a real sign-in that signs nobody in.
  app.post(
    '/upstreams/:upstream_id/test-sign-ins',
    { config: access.write },
    async (request: UpstreamRequest, reply) => {
      const provider = await providerOrThrow(request.params.upstream_id);
      const now = clock.now();
      const started = await startTestSignIn(
        store,
        provider,
        `${issuer}${CALLBACK_PATH}`,
        request.adminActor,
        now,
      ).catch((error: unknown) => {
        if (error instanceof UpstreamFailure) return error;
        throw error;
      });
      if (started instanceof UpstreamFailure) {
        // It failed before the browser was sent anywhere: the result at once, as the callback would give it.
        await audit.record({
          event: 'upstream_test_sign_in',
          at: now,
          actor: request.adminActor.id,
          reason: `${provider.id}: ${started.code}`,
        });
        return reply.code(201).send(testSignInFailure(provider.id, started, now));
      }
      return reply.code(201).send({ ...started.result, authorization_url: started.authorizationUrl.href });
    },
  );
  app.get(
    '/upstreams/:upstream_id/test-sign-ins/:test_id',
    { config: access.read },
    async (request: TestSignInRequest) => {
      const { upstream_id: upstream, test_id: id } = request.params;
      const result = await readTestSignIn(store, request.adminActor, upstream, id, clock.now());
      // Another operator's, unknown, expired or read already: the same answer, so none is told apart.
      if (result === undefined)
        throw new ProblemError('not_found', `There is no test sign-in '${id}' of yours at '${upstream}' to read.`);
      return result;
    },
  );
  app.delete('/upstreams/:upstream_id', { config: access.write }, async (request: UpstreamRequest, reply) => {
    await removeUpstream(store, audit, request.params.upstream_id, clock.now(), request.adminActor);
    return reply.code(204).send();
  });
}
