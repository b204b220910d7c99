import { basicCredentialsOf, isBasicAuthorization, OAuthError } from '@gatehouse/contract';
import { AUDIT_CLIENT_ID_MAX, truncated, type AuditTrail } from '../../audit/audit.js';
import type { FormParams } from '../../http/form.js';
import { isPublicClient, type ClientRecord } from '../../primitives/records.js';
import type { Repository } from '../../store/repository.js';
import type { ReadsAtOnce } from '../../store/store.js';
import { digestOf, secretMatchesDigest } from '../../primitives/secrets.js';
import {
  assertedClientId,
  JWT_BEARER_ASSERTION_TYPE,
  verifyClientAssertion,
  type AssertionContext,
  type AssertionFailure,
} from './client-assertions.js';

/** The client authentication methods, by their RFC 8414 / RFC 7591 names. */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none', 'private_key_jwt'] as const;

export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/** The credentials a request presents, by method. */
export type PresentedClient =
  | {
      readonly method: 'client_secret_basic' | 'client_secret_post';
      readonly clientId: string;
      readonly secret: string;
    }
  | { readonly method: 'none'; readonly clientId: string }
  | { readonly method: 'private_key_jwt'; readonly clientId: string; readonly assertion: string };

/**
 * Reads the client's credentials from the Authorization header or the body, refusing more than
 * one method at once (RFC 6749 §2.3). No credentials at all is an authentication failure.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1 RFC 6749 §2.3.1
 * @see https://www.rfc-editor.org/rfc/rfc7523#section-2.2 RFC 7523 §2.2
 */
export function presentedClient(authorization: string | undefined, params: FormParams): PresentedClient {
  const bodyId = params.get('client_id');
  const bodySecret = params.get('client_secret');
  const basic = isBasicAuthorization(authorization);
  if (params.get('client_assertion_type') !== undefined || params.get('client_assertion') !== undefined) {
    if (basic || bodySecret !== undefined) throw new OAuthError('multiple_client_authentication');
    return presentedAssertion(params, bodyId);
  }
  if (basic) {
    if (bodySecret !== undefined) throw new OAuthError('multiple_client_authentication');
    // RFC 6749 §2.3.1: the contract's one reading of client_secret_basic.
    const credentials = basicCredentialsOf(authorization as string);
    if (credentials === undefined) throw new OAuthError('client_authorization_malformed');
    // A client_id in the body may repeat the header's, but never name another client.
    if (bodyId !== undefined && bodyId !== credentials.clientId) throw new OAuthError('multiple_client_authentication');
    return { method: 'client_secret_basic', ...credentials };
  }
  if (bodyId === undefined) throw new OAuthError('client_authentication_failed');
  return bodySecret === undefined
    ? { method: 'none', clientId: bodyId }
    : { method: 'client_secret_post', clientId: bodyId, secret: bodySecret };
}

/**
 * RFC 7523 §2.2: `client_assertion_type` names the JWT bearer type and `client_assertion` holds one
 * JWT, whose `sub` is the client (§3 item 2); a `client_id` beside it must be the same (RFC 7521 §4.2).
 */
function presentedAssertion(params: FormParams, bodyId: string | undefined): PresentedClient {
  const assertion = params.get('client_assertion');
  if (params.get('client_assertion_type') !== JWT_BEARER_ASSERTION_TYPE || assertion === undefined)
    throw new OAuthError('client_assertion_malformed');
  const clientId = assertedClientId(assertion);
  if (clientId === undefined || (bodyId !== undefined && bodyId !== clientId))
    throw new OAuthError('client_assertion_malformed');
  return { method: 'private_key_jwt', clientId, assertion };
}

// Compared against when the client is unknown, so that answering takes as long as for a known one.
const UNKNOWN_CLIENT_DIGEST = digestOf('gatehouse: no such client');

/** Who is authenticating, for the audit trail of failures, and what an assertion is checked against. */
export interface AuthenticationOrigin {
  /** The client's address (TRUST_PROXY applied). */
  readonly address?: string;
  /** Epoch seconds. */
  readonly now: number;
  readonly audit: AuditTrail;
  /** For private_key_jwt: the client's keys, the issuer and the other URLs `aud` may name. */
  readonly assertions: Omit<AssertionContext, 'store' | 'now'>;
}

type FailureReason =
  'method_not_allowed' | 'unknown_client' | 'wrong_secret' | 'secret_missing' | 'unexpected_secret' | AssertionFailure;

/** What one method checks, given the client (undefined when unknown); null when it authenticates. */
type MethodCheck = (
  client: ClientRecord | undefined,
  presented: PresentedClient,
  store: Repository,
  origin: AuthenticationOrigin,
) => Promise<FailureReason | null> | FailureReason | null;

function checkSecret(client: ClientRecord | undefined, presented: PresentedClient): FailureReason | null {
  const secret = 'secret' in presented ? presented.secret : '';
  const storedDigest = client?.secretDigest ?? null;
  const matches = secretMatchesDigest(secret, storedDigest ?? UNKNOWN_CLIENT_DIGEST);
  if (client && storedDigest !== null && matches) return null;
  return !client ? 'unknown_client' : storedDigest === null ? 'unexpected_secret' : 'wrong_secret';
}

/**
 * The methods, each the check of its credentials against the client (RFC 6749 §2.3, RFC 7523 §2.2).
 * A client restricted to one method (`authMethod`) may use no other.
 */
const METHODS: Readonly<Record<ClientAuthMethod, MethodCheck>> = {
  client_secret_basic: checkSecret,
  client_secret_post: checkSecret,
  // Only public clients, which have no secret and no keys (RFC 6749 §2.1).
  none: (client) => (!client ? 'unknown_client' : isPublicClient(client) ? null : 'secret_missing'),
  private_key_jwt: async (client, presented, store, origin) => {
    if (!client) return 'unknown_client';
    const assertion = (presented as { assertion: string }).assertion;
    return verifyClientAssertion(assertion, client, { ...origin.assertions, store, now: origin.now });
  },
};

/**
 * Authenticates a client. Every failure gives the same `invalid_client` answer, whether the client
 * is unknown, the secret wrong, the assertion refused, or the method not the client's, so nothing
 * about clients leaks. A failure is recorded in the audit trail (client id as presented, truncated).
 */
export async function authenticateClient(
  store: Repository,
  presented: PresentedClient,
  origin: AuthenticationOrigin,
): Promise<ClientRecord> {
  const client = await store.findClient(presented.clientId);
  const failure = restricted(client, presented)
    ? 'method_not_allowed'
    : await METHODS[presented.method](client, presented, store, origin);
  if (failure === null && client) return client;
  return failed(presented, origin, failure ?? 'unknown_client');
}

/**
 * `authenticateClient` answered synchronously for a client secret (RFC 6749 §2.3.1) whose client the
 * store reads at once: the client when it authenticates, else null: a failure too, which
 * `authenticateClient` then answers with its audit record, as it answers every read that must wait.
 */
export function authenticatedAtOnce(reads: ReadsAtOnce, presented: PresentedClient): ClientRecord | null {
  if (presented.method !== 'client_secret_basic' && presented.method !== 'client_secret_post') return null;
  const client = reads.findClient(presented.clientId);
  if (!client || restricted(client, presented)) return null;
  return checkSecret(client, presented) === null ? client : null;
}

/** Whether the client may not use the method presented: it is restricted to another one. */
function restricted(client: ClientRecord | undefined, presented: PresentedClient): boolean {
  // FAPI 2.0 §5.4.1: a fapi2 client authenticates with private_key_jwt only, never a secret.
  const only = client?.profile === 'fapi2' ? 'private_key_jwt' : client?.authMethod;
  return only !== undefined && only !== presented.method;
}

async function failed(presented: PresentedClient, origin: AuthenticationOrigin, reason: FailureReason): Promise<never> {
  await origin.audit.record({
    event: 'client_authentication_failed',
    at: origin.now,
    clientId: truncated(presented.clientId, AUDIT_CLIENT_ID_MAX),
    reason,
    address: origin.address ?? null,
  });
  throw new OAuthError('client_authentication_failed');
}
