import type { FixedOAuthReason } from '@gatehouse/contract';
import type { AuditTrail } from '../../audit/audit.js';
import { revokeFamily } from './revoke-family.js';
import type { AuthorizationCodeRecord, ClientRecord, GrantRecord } from '../../primitives/records.js';
import type { Store } from '../../store/store.js';
import { issueGrant } from './grant-issuance.js';
import { noteTokenProof, type UnnotedDpopProof } from '../sender-constraints/index.js';
import { digestOf, s256 } from '../../primitives/secrets.js';
import { newOpaqueSecret } from '../../primitives/random.js';
import { constantTimeEqual } from '../../primitives/constant-time.js';
import { FAPI2_MAX_CODE_LIFETIME, isFapi2 } from '../sender-constraints/index.js';

/** How long an authorization code waits for its exchange unless AUTHORIZATION_CODE_TTL says otherwise. */
export const DEFAULT_AUTHORIZATION_CODE_TTL = 60;
/** RFC 6749 §4.1.2: "A maximum authorization code lifetime of 10 minutes is RECOMMENDED." */
export const MAX_AUTHORIZATION_CODE_TTL = 600;

interface NewCode {
  readonly client: ClientRecord;
  readonly subject: string;
  readonly scope: readonly string[];
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly now: number;
  /** Seconds the code waits for its exchange (AUTHORIZATION_CODE_TTL); the default when undefined. */
  readonly lifetime?: number | undefined;
  /** OIDC Core §3.1.2.1: carried to the ID token exactly as sent. */
  readonly nonce?: string | undefined;
  /** When the user signed in, for the ID token's auth_time (OIDC Core §2). */
  readonly authTime?: number | null;
  /** How, for the ID token's amr (RFC 8176, OIDC Core §2). */
  readonly amr?: readonly string[] | null;
  /** RFC 9449 §10 `dpop_jkt` of the authorization request. */
  readonly dpopJkt?: string | undefined;
  /** The organization chosen at /authorize: the grant's, and so every token's. */
  readonly organizationId?: string | undefined;
}

/** Creates a single-use code bound to client, redirect URI and PKCE challenge; returns its plaintext. */
export async function createAuthorizationCode(store: Store, c: NewCode): Promise<string> {
  const code = newOpaqueSecret();
  const record: AuthorizationCodeRecord = {
    id: digestOf(code),
    clientId: c.client.id,
    subject: c.subject,
    scope: c.scope,
    redirectUri: c.redirectUri,
    codeChallenge: c.codeChallenge,
    codeChallengeMethod: 'S256',
    createdAt: c.now,
    expiresAt: c.now + codeLifetime(c.client, c.lifetime ?? DEFAULT_AUTHORIZATION_CODE_TTL),
    usedAt: null,
    grantId: null,
    nonce: c.nonce ?? null,
    authTime: c.authTime ?? null,
    amr: c.amr ?? null,
    dpopJkt: c.dpopJkt ?? null,
    organizationId: c.organizationId ?? null,
  };
  await store.insertAuthorizationCode(record);
  return code;
}

/** FAPI 2.0 §5.3.2.2: at most 60 s for a fapi2 client, however long the server's codes live. */
function codeLifetime(client: ClientRecord, configured: number): number {
  return isFapi2(client) ? Math.min(configured, FAPI2_MAX_CODE_LIFETIME) : configured;
}

interface Redemption {
  readonly code: string;
  readonly client: ClientRecord;
  readonly redirectUri: string;
  readonly codeVerifier: string;
  readonly now: number;
  /** The token request's DPoP proof, if any: its key, and its jti to note in the redemption. */
  readonly dpop?: UnnotedDpopProof | undefined;
}

type RedemptionOutcome =
  | {
      readonly ok: true;
      readonly grant: GrantRecord;
      readonly refreshToken: string | null;
      /** The code's nonce and sign-in time, for the ID token. */
      readonly nonce: string | null;
      readonly authTime: number | null;
      readonly amr: readonly string[] | null;
    }
  | { readonly ok: false; readonly reason: FixedOAuthReason };

/**
 * Exchanges a code for a new grant, atomically. A code used twice is refused and the grant issued
 * from it is revoked (RFC 6749 §4.1.2); other refusals leave the code as it was.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.3 RFC 6749 §4.1.3
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.6 RFC 7636 §4.6
 */
export async function redeemAuthorizationCode(trail: AuditTrail, r: Redemption): Promise<RedemptionOutcome> {
  return trail.transaction(async (tx, audit): Promise<RedemptionOutcome> => {
    // RFC 9449 §11.1: the proof's jti, noted in this transaction (one commit); a replay redeems nothing.
    if (r.dpop !== undefined) await noteTokenProof(tx, r.dpop);
    const code = await tx.findAuthorizationCode(digestOf(r.code));
    if (!code) return { ok: false, reason: 'authorization_code_invalid' };
    if (code.clientId !== r.client.id) return { ok: false, reason: 'authorization_code_client_mismatch' };
    if (code.usedAt !== null) {
      if (code.grantId !== null) {
        const grant = { id: code.grantId, clientId: code.clientId, subject: code.subject };
        await revokeFamily(tx, audit, grant, { reason: 'code_replayed', at: r.now });
      }
      return { ok: false, reason: 'authorization_code_used' };
    }
    if (r.now >= code.expiresAt) return { ok: false, reason: 'authorization_code_expired' };
    if (r.redirectUri !== code.redirectUri) return { ok: false, reason: 'redirect_uri_mismatch' };
    if (!constantTimeEqual(s256(r.codeVerifier), code.codeChallenge))
      return { ok: false, reason: 'code_verifier_mismatch' };
    // RFC 9449 §10.1: a code bound by dpop_jkt is redeemed only with a proof of that key.
    if (code.dpopJkt != null && code.dpopJkt !== r.dpop?.jkt)
      return { ok: false, reason: 'authorization_code_dpop_key_mismatch' };
    const issued = await issueGrant(
      tx,
      r.client,
      code.subject,
      code.scope,
      r.now,
      r.dpop?.jkt,
      undefined,
      code.organizationId,
    );
    await tx.markAuthorizationCodeUsed(code.id, r.now, issued.grant.id);
    const authTime = code.authTime ?? null;
    // Kept for the ID tokens of the grant's refreshes, whose auth_time is the original sign-in's (OIDC Core §12.2).
    if (authTime !== null && code.scope.includes('openid'))
      await tx.insertGrantAuthentication(issued.grant.id, authTime, code.amr);
    return { ok: true, ...issued, nonce: code.nonce ?? null, authTime, amr: code.amr ?? null };
  });
}
