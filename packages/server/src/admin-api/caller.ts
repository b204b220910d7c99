import { bearerChallenge, BearerChallenge } from '@gatehouse/contract';
import type { FastifyRequest } from 'fastify';
import { ADMIN_API_PATH, isAdminRole, type AdminRole } from '../access/index.js';
import type { Actor } from '../audit/audit.js';
import type { ServerContext } from '../context.js';
import type { AccessTokenClaims } from '../oauth/tokens/index.js';
import type { ClientRecord } from '../primitives/records.js';
import { ADMIN_READ_SCOPE, ADMIN_SCOPE } from '../oauth/clients/index.js';
import { adminDefinition } from './definition.js';
import { requiredRolesByRoute, requireOneRole } from '../json-api/required-roles.js';
import { requireRecentSignIn, stepUpByRoute } from './step-up.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who calls the admin API: the actor its changes are audited with. */
    adminActor: Actor;
  }
}

/**
 * The admin roles the caller of the admin API holds, from its access token:
 * - a token of an admin client (`clients add --admin`) from the client_credentials grant (RFC 6749
 *   §4.4: no grant, no user) holds `admin`, or only the server-wide admin roles assigned to that client
 *   when it has some (`roles assign user-manager --server-wide --client ID`): a narrower admin client;
 * - a user's token (from a grant) holds the server-wide admin roles its user holds now, directly or
 *   through a group, when the token is for the admin API (RFC 8707 `aud` `{issuer}/admin/v1`) and
 *   is what its client's registration promises: signed in with two factors (`acr` mfa, RFC 9068
 *   §2.2.1) when the client requires a second factor, DPoP-bound (`cnf.jkt`, RFC 9449 §6.1) when its
 *   tokens are (the console's are both, console/console-client.ts). A user's token for any other
 *   audience, or short of its client's promise, holds none.
 * Anything else holds none. The scope alone never suffices: a client registered before admin clients
 * existed may hold the scope name in its registration.
 */
export async function adminRolesOf(
  claims: AccessTokenClaims,
  { store, issuer }: Pick<ServerContext, 'store' | 'issuer'>,
): Promise<readonly AdminRole[]> {
  if (claims.grant_id === undefined) {
    const client = await store.findClient(claims.client_id);
    if (client?.admin !== true) return [];
    const narrowed = (await store.serverRolesOfClient(client.id)).filter(isAdminRole);
    return narrowed.length > 0 ? narrowed : ['admin'];
  }
  const audiences: readonly string[] = typeof claims.aud === 'string' ? [claims.aud] : claims.aud;
  if (!audiences.includes(`${issuer}${ADMIN_API_PATH}`)) return [];
  if (!keepsPromiseOf(claims, await store.findClient(claims.client_id))) return [];
  return (await store.heldAccess(claims.sub, null)).roles.filter(isAdminRole);
}

/**
 * Whether a user's token is as its client's registration says every one of its tokens is: two
 * factors when the client requires a second factor, DPoP-bound when the client's tokens are. The
 * token endpoint already issues no other; this check keeps the admin API from trusting a token that
 * does not itself say so (an older token, a changed registration).
 */
function keepsPromiseOf(claims: AccessTokenClaims, client: ClientRecord | undefined): boolean {
  if (client === undefined) return false;
  if (client.secondFactor === 'required' && claims.acr !== 'mfa') return false;
  return client.dpopBoundAccessTokens !== true || claims.cnf?.jkt !== undefined;
}

/** The actor of a caller's changes: the admin client's id, or for a user's token `user:SUB client:ID`. */
function actorOf(claims: AccessTokenClaims): Actor {
  return { id: claims.grant_id === undefined ? claims.client_id : `user:${claims.sub} client:${claims.client_id}` };
}

/**
 * The check of every admin operation, after the bearer token and its scope: the caller holds one of
 * the roles the document declares on the operation (`x-required-roles`, admin-roles.ts), else 403;
 * then, for a dangerous operation (`x-step-up-max-age`), a user's sign-in is that recent, else 401
 * (step-up.ts).
 */
export function adminCaller(context: Pick<ServerContext, 'store' | 'issuer' | 'clock'>) {
  const { paths } = adminDefinition(context.issuer).document;
  const required = requiredRolesByRoute(paths, ADMIN_API_PATH);
  const stepUp = stepUpByRoute(paths, ADMIN_API_PATH);
  return async (claims: AccessTokenClaims, request: FastifyRequest): Promise<void> => {
    const held = await adminRolesOf(claims, context);
    if (held.length === 0)
      throw new BearerChallenge(
        'insufficient_scope',
        'Only an access token of an admin client (gatehouse clients add --admin), from the ' +
          'client_credentials grant, or a token for the admin API of a user holding an admin role, may call the admin API ' +
          '(signed in with two factors when its client requires them).',
        bearerChallenge({ realm: 'gatehouse' }, { error: 'insufficient_scope', scope: ADMIN_READ_SCOPE }),
      );
    const route = `${request.method} ${request.routeOptions.url ?? ''}`;
    requireOneRole(held, required.get(route) ?? ['admin']);
    requireRecentSignIn(claims, stepUp.get(route), context.clock.now(), 'gatehouse');
    request.adminActor = actorOf(claims);
  };
}

/** The route configs of the admin API's reads and writes (json-api/serve-json-api.ts reads them). */
export function adminAccess(context: Pick<ServerContext, 'store' | 'issuer' | 'clock'>) {
  const authorize = adminCaller(context);
  return {
    read: { scope: [ADMIN_READ_SCOPE, ADMIN_SCOPE], authorize },
    write: { scope: ADMIN_SCOPE, authorize },
    writeJson: { scope: ADMIN_SCOPE, mediaType: 'application/json', authorize },
  } as const;
}

export type AdminAccess = ReturnType<typeof adminAccess>;
