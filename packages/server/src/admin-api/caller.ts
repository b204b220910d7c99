import { bearerChallenge, BearerChallenge } from '@gatehouse/contract';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../audit/audit.js';
import type { ServerContext } from '../context.js';
import type { AccessTokenClaims } from '../oauth/tokens/index.js';
import { ADMIN_READ_SCOPE, ADMIN_SCOPE } from '../oauth/clients/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The admin client calling the admin API: the actor its changes are audited with. */
    adminActor: Actor;
  }
}

/**
 * The admin API's caller must be an admin client, presenting a token of its own from the
 * client_credentials grant (RFC 6749 §4.4: no grant, no user). The scope alone does not suffice:
 * a client registered before admin clients existed may hold the scope name in its registration.
 */
export function adminCaller({ store }: Pick<ServerContext, 'store'>) {
  return async (claims: AccessTokenClaims, request: FastifyRequest): Promise<void> => {
    const client = claims.grant_id === undefined ? await store.findClient(claims.client_id) : undefined;
    if (client?.admin !== true)
      throw new BearerChallenge(
        'insufficient_scope',
        'Only an access token of an admin client (gatehouse clients add --admin), from the ' +
          'client_credentials grant, may call the admin API.',
        bearerChallenge({ realm: 'gatehouse' }, { error: 'insufficient_scope', scope: ADMIN_READ_SCOPE }),
      );
    request.adminActor = { id: client.id };
  };
}

/** The route configs of the admin API's reads and writes (json-api/serve-json-api.ts reads them). */
export function adminAccess(context: Pick<ServerContext, 'store'>) {
  const authorize = adminCaller(context);
  return {
    read: { scope: [ADMIN_READ_SCOPE, ADMIN_SCOPE], authorize },
    write: { scope: ADMIN_SCOPE, authorize },
    writeJson: { scope: ADMIN_SCOPE, mediaType: 'application/json', authorize },
  } as const;
}

export type AdminAccess = ReturnType<typeof adminAccess>;
