import { OAuthError, ProblemError } from '@gatehouse/contract';
import { isPublicClient } from '../../primitives/records.js';
import type { FastifyRequest } from 'fastify';
import { addressKey, type Charge } from '../../abuse/rate-limiter.js';
import type { FormParams } from '../../http/form.js';
import { OAuthRateLimited } from '../../http/oauth-errors.js';
import type { ClientRecord } from '../../primitives/records.js';
import { authenticateClient, authenticatedAtOnce, presentedClient } from '../clients/index.js';
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

/**
 * The same step answered synchronously: the client, or null where a step must be awaited (the
 * store's read, the limits' buckets, a URL client_id's document) or authentication failed. Nothing
 * is charged before null, and the caller then runs `callerAuthentication`'s step, which answers a
 * failure with its audit record.
 */
export function callerAuthenticationAtOnce(
  endpoint: Pick<OAuthEndpoint, 'name' | 'clientAuthentication' | 'resolvesClientIdMetadataDocuments'>,
): (services: CallerServices, request: FastifyRequest, params: FormParams) => ClientRecord | null {
  const clientLimit = `${endpoint.name}_client`;
  const addressLimit = `${endpoint.name}_address`;
  const publicAllowed = endpoint.clientAuthentication === 'public_allowed';
  const resolvesDocuments = endpoint.resolvesClientIdMetadataDocuments === true;
  return ({ store, rateLimits, clientIdMetadataDocuments }, request, params) => {
    if (store.readsAtOnce === undefined) return null;
    const presented = presentedClient(request.headers.authorization, params);
    if (resolvesDocuments && clientIdMetadataDocuments.handles(presented.clientId)) return null;
    const address: Charge = [addressLimit, addressKey(request.ip)];
    const known = rateLimits.knownRefusal([address, [clientLimit, presented.clientId]]);
    if (known > 0) throw new OAuthRateLimited(known);
    const client = authenticatedAtOnce(store.readsAtOnce, presented);
    if (client === null) return null;
    const wait = rateLimits.consumeAtOnce([address, [clientLimit, client.id]]);
    return wait === undefined ? null : admitted(client, wait, publicAllowed);
  };
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
  return admitted(client, await rateLimits.consume([address, [clientLimit, client.id]]), rules.publicAllowed);
}

/** An authenticated client past its limits' charge (`wait` seconds, 0: allowed) and the endpoint's rule on public clients. */
function admitted(client: ClientRecord, wait: number, publicAllowed: boolean): ClientRecord {
  if (wait > 0) throw new OAuthRateLimited(wait);
  // A public client authenticated by `none` where only confidential clients are served (RFC 7662 §2.1).
  if (!publicAllowed && isPublicClient(client)) throw new OAuthError('client_authentication_failed');
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
