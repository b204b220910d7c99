import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validBodyOrThrow } from '../json-api/body-problems.js';
import { requireBody } from '../json-api/serve-json-api.js';
import { cursorPosition, pageOf, pageSize } from '../json-api/paging.js';
import type { ServerContext } from '../context.js';
import {
  createClient,
  deleteClient,
  existingClient,
  rotateClientSecret,
  updateClient,
  type ClientChanges,
} from '../oauth/clients/index.js';
import { describeClient } from '../oauth/clients/index.js';
import type { ClientRecord } from '../primitives/records.js';
import type { AdminAccess } from './caller.js';
import type { AdminDefinition } from './definition.js';
import type { Query } from './query.js';

type ClientRequest = FastifyRequest<{ Params: { client_id: string } }>;

/** /clients: register, list, read, replace, delete, and rotate a secret (oauth/clients/client-administration.ts). */
export function clientRoutes(
  app: FastifyInstance,
  { store, audit, clock }: ServerContext,
  { bodies }: AdminDefinition,
  access: AdminAccess,
): void {
  app.get<{ Querystring: Query }>('/clients', { config: access.read }, async (request) => {
    const limit = pageSize(request.query.limit);
    const after = cursorPosition(request.query.cursor, (id) => id !== '');
    return pageOf(await store.listClientsPage(after, limit + 1), limit, (c) => c.id, describeClient);
  });
  app.post('/clients', { config: access.writeJson }, async (request, reply) => {
    requireBody(request);
    const body = validBodyOrThrow(bodies.createClient(request.body));
    const registration = { ...settingsOf(body), id: body.client_id as string, public: body.public === true };
    const { client, secret } = await createClient(audit, registration, clock.now(), request.adminActor);
    reply.code(201).header('location', `${request.url.split('?')[0]}/${encodeURIComponent(client.id)}`);
    return withSecret(client, secret);
  });
  app.get('/clients/:client_id', { config: access.read }, async (request: ClientRequest) =>
    describeClient(await existingClient(store, request.params.client_id)),
  );
  app.put('/clients/:client_id', { config: access.writeJson }, async (request: ClientRequest) => {
    requireBody(request);
    const changes = settingsOf(validBodyOrThrow(bodies.updateClient(request.body)));
    return describeClient(
      await updateClient(audit, request.params.client_id, changes, clock.now(), request.adminActor),
    );
  });
  app.delete('/clients/:client_id', { config: access.write }, async (request: ClientRequest, reply) => {
    const id = request.params.client_id;
    if (!(await deleteClient(audit, id, clock.now(), request.adminActor)))
      throw new ProblemError('not_found', `There is no client '${id}'.`);
    return reply.code(204).send();
  });
  app.post('/clients/:client_id/secret', { config: access.write }, async (request: ClientRequest) => {
    const { client, secret } = await rotateClientSecret(
      audit,
      request.params.client_id,
      clock.now(),
      request.adminActor,
    );
    return withSecret(client, secret);
  });
}

function withSecret(client: ClientRecord, secret: string | null): Record<string, unknown> {
  return { ...describeClient(client), ...(secret === null ? {} : { client_secret: secret }) };
}

/** The settings of a validated ClientCreate or ClientUpdate body, as the domain names them. */
function settingsOf(body: Record<string, unknown>): ClientChanges {
  const scope = body.scope as string | undefined;
  const exchange = body.token_exchange as
    | { audiences?: string[]; subject_audiences?: string[]; impersonation?: boolean; refresh_tokens?: boolean }
    | undefined;
  return {
    name: body.name as string,
    redirectUris: body.redirect_uris as string[] | undefined,
    grantTypes: body.grant_types as string[] | undefined,
    scope: scope?.split(' ').filter((s) => s !== ''),
    rotation: body.rotation as boolean | undefined,
    rotationLimit: body.rotation_limit as number | undefined,
    maxRotations: body.max_rotations as number | null | undefined,
    refreshTokenTtl: body.refresh_token_ttl as number | undefined,
    refreshTokenAbsoluteTtl: body.refresh_token_absolute_ttl as number | undefined,
    accessTokenTtl: body.access_token_ttl as number | undefined,
    replayWindow: body.replay_window as number | undefined,
    resourceServer: body.resource_server as boolean | undefined,
    idTokenAlg: body.id_token_signed_response_alg as string | undefined,
    postLogoutRedirectUris: body.post_logout_redirect_uris as string[] | undefined,
    exchangeAudiences: exchange?.audiences,
    exchangeSubjectAudiences: exchange?.subject_audiences,
    exchangeImpersonation: exchange?.impersonation,
    exchangeRefreshTokens: exchange?.refresh_tokens,
    jwks: body.jwks,
    jwksUri: body.jwks_uri as string | null | undefined,
    requirePushedAuthorizationRequests: body.require_pushed_authorization_requests as boolean | undefined,
    dpopBoundAccessTokens: body.dpop_bound_access_tokens as boolean | undefined,
    secondFactor: body.second_factor as string | undefined,
    profile: body.profile as string | undefined,
  };
}
