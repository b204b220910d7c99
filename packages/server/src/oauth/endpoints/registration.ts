import { bearerChallenge, bearerTokenOf, OAuthError } from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { per } from '../../abuse/rate-policies.js';
import { noStore } from '../../http/oauth-errors.js';
import {
  deleteRegisteredClient,
  readRegisteredClient,
  registerDynamicClient,
  updateRegisteredClient,
  type RegistrationCaller,
} from '../clients/index.js';
import type { OAuthServices } from '../services.js';
import { oauthEndpoint } from './endpoint.js';

const served = (services: OAuthServices): boolean => services.clientRegistration !== 'off';

/**
 * POST /register: dynamic client registration (RFC 7591 §3), served unless CLIENT_REGISTRATION is
 * off. Anyone may call it in `open` mode, so every request counts against its address.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3 RFC 7591 §3
 */
export const registrationEndpoint = oauthEndpoint({
  name: 'register',
  method: 'POST',
  path: '/register',
  body: 'json',
  servedWhen: served,
  metadataKey: 'registration_endpoint',
  clientAuthentication: 'none',
  // A client registers once per installation; a burst from one address is a script.
  rateLimits: { address: per(30, 'h') },
  async handle({ request, reply }, services) {
    const information = await withChallenge(reply, () =>
      registerDynamicClient(services, request.body, callerOf(request)),
    );
    // §3.2.1: 201 Created, and never cached (it holds the client's credentials).
    return noStore(reply).code(201).send(information);
  },
});

/**
 * GET, PUT and DELETE /register/{client_id}: the client configuration endpoint (RFC 7592 §2), for
 * the holder of the client's registration access token.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7592#section-2 RFC 7592 §2
 */
export const clientConfigurationEndpoint = oauthEndpoint({
  name: 'client_configuration',
  method: ['GET', 'PUT', 'DELETE'],
  path: '/register/:client_id',
  body: 'json',
  servedWhen: served,
  metadataKey: null,
  clientAuthentication: 'none',
  rateLimits: { address: per(120, 'h') },
  async handle({ request, reply }, services) {
    const clientId = (request.params as { client_id: string }).client_id;
    const caller = callerOf(request);
    noStore(reply);
    switch (request.method) {
      case 'GET':
        return reply.send(await withChallenge(reply, () => readRegisteredClient(services, clientId, caller)));
      case 'PUT':
        return reply.send(
          await withChallenge(reply, () => updateRegisteredClient(services, clientId, request.body, caller)),
        );
      default:
        await withChallenge(reply, () => deleteRegisteredClient(services, clientId, caller));
        // §2.3: 204 No Content.
        return reply.code(204).send();
    }
  },
});

function callerOf(request: FastifyRequest): RegistrationCaller {
  const header = request.headers.authorization;
  return { token: header === undefined ? undefined : bearerTokenOf(header), address: request.ip };
}

const INVALID_TOKEN_CHALLENGE = bearerChallenge({ realm: 'gatehouse' }, { error: 'invalid_token' });

/** RFC 6750 §3: a refused initial or registration access token is answered with a bearer challenge. */
async function withChallenge<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof OAuthError && error.error === 'invalid_token') {
      reply.header('www-authenticate', INVALID_TOKEN_CHALLENGE);
    }
    throw error;
  }
}
