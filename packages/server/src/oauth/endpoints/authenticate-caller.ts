import { OAuthError, ProblemError } from '@gatehouse/contract';
import { isPublicClient } from '../../primitives/records.js';
import type { FastifyRequest } from 'fastify';
import { addressKey, type Charge } from '../../abuse/rate-limiter.js';
import type { FormParams } from '../../http/form.js';
import { OAuthRateLimited } from '../../http/oauth-errors.js';
import type { ClientRecord } from '../../primitives/records.js';
import { authenticateClient, presentedClient } from '../clients/index.js';
import type { ClientIdMetadataDocuments } from '../client-id-metadata/index.js';
import type { OAuthServices } from '../services.js';
import type { OAuthEndpoint } from './endpoint.js';
import { tokenEndpoint } from './token.js';

/**
 * The one client-authentication step of every client-authenticating endpoint: the endpoint's rate
 * limits, authentication (RFC 6749 §2.3), the audit record of a failure, and the endpoint's rule on
 * public clients.
 *
 * An address or client already known to be over its limit is refused before any work, so a flood
 * of wrong secrets costs neither a store read nor an audit row once its address is refused. Every
 * attempt then counts for the address, and a successful one for the client too: a caller without
 * the client's secret cannot use up the client's budget.
 */
export function callerAuthentication(
  endpoint: Pick<OAuthEndpoint, 'name' | 'clientAuthentication' | 'path' | 'resolvesClientIdMetadataDocuments'>,
): (services: CallerServices, request: FastifyRequest, params: FormParams) => Promise<ClientRecord> {
  const clientLimit = `${endpoint.name}_client`;
  const addressLimit = `${endpoint.name}_address`;
  const publicAllowed = endpoint.clientAuthentication === 'public_allowed';
  // RFC 7523 §3 item 3, RFC 9126 §2: besides the issuer, an assertion's `aud` may name the token
  // endpoint's URL or the URL of the endpoint it is sent to.
  const paths = [...new Set([tokenEndpoint.path, endpoint.path])];
  const resolvesDocuments = endpoint.resolvesClientIdMetadataDocuments === true;
  return (services, request, params) =>
    authenticateCaller(
      services,
      { clientLimit, addressLimit, publicAllowed, paths, resolvesDocuments },
      request,
      params,
    );
}

type CallerServices = Pick<
  OAuthServices,
  'store' | 'audit' | 'clock' | 'rateLimits' | 'issuer' | 'clientKeys' | 'clientIdMetadataDocuments'
>;

async function authenticateCaller(
  services: CallerServices,
  rules: {
    readonly clientLimit: string;
    readonly addressLimit: string;
    readonly publicAllowed: boolean;
    readonly paths: readonly string[];
    readonly resolvesDocuments: boolean;
  },
  request: FastifyRequest,
  params: FormParams,
): Promise<ClientRecord> {
  const { rateLimits } = services;
  const { clientLimit, addressLimit } = rules;
  const presented = presentedClient(request.headers.authorization, params);
  const address: Charge = [addressLimit, addressKey(request.ip)];
  const known = rateLimits.knownRefusal([address, [clientLimit, presented.clientId]]);
  if (known > 0) throw new OAuthRateLimited(known);

  let client: ClientRecord;
  try {
    // Fetched (or read from the cache) into the clients table, where authentication then finds it.
    if (rules.resolvesDocuments && services.clientIdMetadataDocuments.handles(presented.clientId))
      await resolveDocumentClient(services.clientIdMetadataDocuments, presented.clientId, request.ip);
    client = await authenticateClient(services.store, presented, {
      address: request.ip,
      now: services.clock.now(),
      audit: services.audit,
      assertions: {
        clientKeys: services.clientKeys,
        issuer: services.issuer,
        audiences: rules.paths.map((path) => `${services.issuer}${path}`),
      },
    });
  } catch (error) {
    const wait = await rateLimits.consume([address]);
    throw wait > 0 ? new OAuthRateLimited(wait) : error;
  }
  const wait = await rateLimits.consume([address, [clientLimit, client.id]]);
  if (wait > 0) throw new OAuthRateLimited(wait);
  // A public client authenticated by `none` where only confidential clients are served (RFC 7662 §2.1).
  if (!rules.publicAllowed && isPublicClient(client)) {
    throw new OAuthError('client_authentication_failed');
  }
  return client;
}

/**
 * A URL client_id's document, its refusal (a catalog problem, shown as a page at /authorize) as the
 * OAuth error of the same name: an unknown client (RFC 6749 §5.2 invalid_client). The audit trail
 * holds why.
 */
async function resolveDocumentClient(
  documents: ClientIdMetadataDocuments,
  clientId: string,
  address: string,
): Promise<void> {
  try {
    await documents.resolve(clientId, address);
  } catch (error) {
    if (error instanceof ProblemError && isDocumentProblem(error.code)) throw new OAuthError(error.code);
    throw error;
  }
}

const DOCUMENT_PROBLEMS = [
  'client_metadata_document_unavailable',
  'client_metadata_document_invalid',
  'client_metadata_document_not_allowed',
] as const;

function isDocumentProblem(code: string): code is (typeof DOCUMENT_PROBLEMS)[number] {
  return (DOCUMENT_PROBLEMS as readonly string[]).includes(code);
}
