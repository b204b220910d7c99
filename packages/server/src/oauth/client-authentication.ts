import { OAuthError } from '@gatehouse/contract';
import { AUDIT_CLIENT_ID_MAX, truncated, type AuditTrail } from '../audit/audit.js';
import type { FormParams } from '../http/form.js';
import type { ClientRecord } from '../primitives/records.js';
import type { Repository } from '../store/repository.js';
import { digestOf, secretMatchesDigest } from '../primitives/secrets.js';

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

interface PresentedClient {
  readonly method: ClientAuthMethod;
  readonly clientId: string;
  readonly secret: string | null;
}

/**
 * Reads the client's credentials from the Authorization header or the body, refusing more than
 * one method at once (RFC 6749 §2.3). No credentials at all is an authentication failure.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1 RFC 6749 §2.3.1
 */
export function presentedClient(authorization: string | undefined, params: FormParams): PresentedClient {
  const bodyId = params.get('client_id');
  const bodySecret = params.get('client_secret');
  if (authorization !== undefined && /^basic /i.test(authorization)) {
    if (bodySecret !== undefined) throw new OAuthError('multiple_client_authentication');
    const basic = parseBasic(authorization.slice(6).trim());
    // A client_id in the body may repeat the header's, but never name another client.
    if (bodyId !== undefined && bodyId !== basic.clientId) throw new OAuthError('multiple_client_authentication');
    return { method: 'client_secret_basic', ...basic };
  }
  if (bodyId === undefined) throw new OAuthError('client_authentication_failed');
  return bodySecret === undefined
    ? { method: 'none', clientId: bodyId, secret: null }
    : { method: 'client_secret_post', clientId: bodyId, secret: bodySecret };
}

// RFC 6749 §2.3.1: id and secret are form-urlencoded before being joined by ':' and base64-encoded.
function parseBasic(encoded: string): { clientId: string; secret: string } {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw new OAuthError('client_authorization_malformed');
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw new OAuthError('client_authorization_malformed');
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError('client_authorization_malformed');
  }
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

// Compared against when the client is unknown, so that answering takes as long as for a known one.
const UNKNOWN_CLIENT_DIGEST = digestOf('gatehouse: no such client');

/** Who is authenticating, for the audit trail of failures. */
interface AuthenticationOrigin {
  /** The client's address (TRUST_PROXY applied). */
  readonly address?: string;
  /** Epoch seconds. */
  readonly now: number;
  readonly audit: AuditTrail;
}

type FailureReason = 'unknown_client' | 'wrong_secret' | 'secret_missing' | 'unexpected_secret';

/**
 * Authenticates a client. Every failure gives the same `invalid_client` answer, whether the client
 * is unknown, the secret wrong, or the method not the client's, so nothing about clients leaks.
 * With an `origin`, a failure is recorded in the audit trail (client id as presented, truncated).
 */
export async function authenticateClient(
  store: Repository,
  presented: PresentedClient,
  origin?: AuthenticationOrigin,
): Promise<ClientRecord> {
  const client = await store.findClient(presented.clientId);
  const storedDigest = client?.secretDigest ?? null;
  if (presented.secret !== null) {
    const matches = secretMatchesDigest(presented.secret, storedDigest ?? UNKNOWN_CLIENT_DIGEST);
    if (client && storedDigest !== null && matches) return client;
    return failed(
      store,
      presented,
      origin,
      !client ? 'unknown_client' : storedDigest === null ? 'unexpected_secret' : 'wrong_secret',
    );
  }
  // Method "none": only public clients, which have no secret (RFC 6749 §2.1).
  if (client && storedDigest === null) return client;
  return failed(store, presented, origin, client ? 'secret_missing' : 'unknown_client');
}

async function failed(
  store: Repository,
  presented: PresentedClient,
  origin: AuthenticationOrigin | undefined,
  reason: FailureReason,
): Promise<never> {
  if (origin) {
    await origin.audit.record({
      event: 'client_authentication_failed',
      at: origin.now,
      clientId: truncated(presented.clientId, AUDIT_CLIENT_ID_MAX),
      reason,
      address: origin.address ?? null,
    });
  }
  throw new OAuthError('client_authentication_failed');
}
