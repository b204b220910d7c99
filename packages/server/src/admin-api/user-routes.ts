import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validBodyOrThrow } from '../json-api/body-problems.js';
import { requireBody } from '../json-api/serve-json-api.js';
import { cursorPosition, pageOf, pageSize } from '../json-api/paging.js';
import type { ServerContext } from '../context.js';
import { checkedClaims } from '../users/claims.js';
import { generatePassword } from '../users/passwords.js';
import {
  createUser,
  deleteUser,
  disableUser,
  enableUser,
  existingUser,
  setSecondFactorRequirement,
  setUserPassword,
  updateUser,
} from '../users/user-administration.js';
import { describeUser } from '../users/users.js';
import { describeFactor, listFactors, resetFactors } from '../factors/factors.js';
import { describeSession, endUserSession, listUserSessions, signOutEverywhere } from '../users/user-sessions.js';
import type { AdminAccess } from './caller.js';
import type { AdminDefinition } from './definition.js';
import { querySearch, queryValue, type Query } from './query.js';
import type { UserFilter } from '../store/admin-repository.js';

type UserRequest = FastifyRequest<{ Params: { username: string } }>;

/**
 * `q` (part of a username, any case: usernames are lowercase) and `state` (`enabled`, `disabled`)
 * of GET /users; the store filters, so every page is full and the cursor stays a username.
 */
function userFilterOf(query: Query): UserFilter {
  const search = querySearch(query, 'a username');
  const state = queryValue(query, 'state');
  if (state !== undefined && state !== 'enabled' && state !== 'disabled')
    throw new ProblemError('invalid_parameter', 'state must be enabled or disabled.');
  return {
    ...(search === undefined ? {} : { search }),
    ...(state === undefined ? {} : { state }),
  };
}

/**
 * /users: add, list, read, replace claims, set the password, require a second factor, disable,
 * enable, delete (users/user-administration.ts); a user's browser sessions, one ended, or all of it
 * signed out (users/user-sessions.ts).
 */
export function userRoutes(
  app: FastifyInstance,
  { store, audit, clock }: ServerContext,
  { bodies }: AdminDefinition,
  access: AdminAccess,
): void {
  app.get<{ Querystring: Query }>('/users', { config: access.read }, async (request) => {
    const limit = pageSize(request.query.limit);
    const after = cursorPosition(request.query.cursor, (name) => name !== '');
    const filter = userFilterOf(request.query);
    return pageOf(await store.listUsersPage(after, limit + 1, filter), limit, (u) => u.username, describeUser);
  });
  app.post('/users', { config: access.writeJson }, async (request, reply) => {
    requireBody(request);
    const { username, password, second_factor_required, ...claims } = validBodyOrThrow(bodies.createUser(request.body));
    // Without a password, a strong one is made and shown this once: only its hash is kept.
    const generated = password === undefined ? generatePassword() : undefined;
    const user = await createUser(
      audit,
      username as string,
      (password as string | undefined) ?? (generated as string),
      clock.now(),
      checkedClaims(claims as Record<string, string | boolean>),
      request.adminActor,
      { secondFactorRequired: second_factor_required === true },
    );
    reply.code(201).header('location', `${request.url.split('?')[0]}/${encodeURIComponent(user.username)}`);
    return { ...describeUser(user), ...(generated === undefined ? {} : { password: generated }) };
  });
  app.get('/users/:username', { config: access.read }, async (request: UserRequest) =>
    describeUser(await existingUser(store, request.params.username)),
  );
  app.put('/users/:username/claims', { config: access.writeJson }, async (request: UserRequest) => {
    requireBody(request);
    const body = validBodyOrThrow(bodies.replaceUserClaims(request.body));
    const claims = checkedClaims(body as Record<string, string | boolean>);
    const { username } = request.params;
    return describeUser(await updateUser(audit, username, () => claims, undefined, clock.now(), request.adminActor));
  });
  app.put('/users/:username/password', { config: access.writeJson }, async (request: UserRequest, reply) => {
    requireBody(request);
    const { password, temporary } = validBodyOrThrow(bodies.setUserPassword(request.body));
    await setUserPassword(audit, request.params.username, password as string, clock.now(), request.adminActor, {
      temporary: temporary === true,
    });
    return reply.code(204).send();
  });
  app.put('/users/:username/second-factor-requirement', { config: access.writeJson }, async (request: UserRequest) => {
    requireBody(request);
    const { required } = validBodyOrThrow(bodies.setUserSecondFactorRequirement(request.body));
    const { username } = request.params;
    const user = await setSecondFactorRequirement(audit, username, required === true, clock.now(), request.adminActor);
    return describeUser(user);
  });
  app.post('/users/:username/disable', { config: access.write }, async (request: UserRequest) =>
    describeUser(await disableUser(audit, request.params.username, clock.now(), request.adminActor)),
  );
  app.post('/users/:username/enable', { config: access.write }, async (request: UserRequest) =>
    describeUser(await enableUser(audit, request.params.username, clock.now(), request.adminActor)),
  );
  app.get('/users/:username/factors', { config: access.read }, async (request: UserRequest) => {
    const user = await existingUser(store, request.params.username);
    return { factors: (await listFactors(store, user.subject)).map(describeFactor) };
  });
  app.post<{ Params: { username: string }; Querystring: Query }>(
    '/users/:username/factors/reset',
    { config: access.write },
    async (request) => {
      const user = await existingUser(store, request.params.username);
      const requireEnrolment = queryValue(request.query, 'require_enrolment') === 'true';
      const now = clock.now();
      const removed = await resetFactors(audit, user, { now, actor: request.adminActor, requireEnrolment });
      return { removed, second_factor_required: requireEnrolment };
    },
  );
  app.get('/users/:username/sessions', { config: access.read }, async (request: UserRequest) => ({
    items: (await listUserSessions(store, request.params.username, clock.now())).map(describeSession),
  }));
  app.delete(
    '/users/:username/sessions/:session_id',
    { config: access.write },
    async (request: FastifyRequest<{ Params: { username: string; session_id: string } }>, reply) => {
      const { username, session_id } = request.params;
      await endUserSession(audit, username, session_id, clock.now(), request.adminActor);
      return reply.code(204).send();
    },
  );
  app.post('/users/:username/sign-out', { config: access.write }, async (request: UserRequest) => {
    const ended = await signOutEverywhere(audit, request.params.username, clock.now(), request.adminActor);
    return { sessions_ended: ended.sessionsEnded, grants_revoked: ended.grantsRevoked };
  });
  app.delete('/users/:username', { config: access.write }, async (request: UserRequest, reply) => {
    const { username } = request.params;
    const { removed } = await deleteUser(audit, username, clock.now(), request.adminActor);
    if (!removed) throw new ProblemError('not_found', `There is no user '${username}'.`);
    return reply.code(204).send();
  });
}
