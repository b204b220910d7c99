import type { FixedOAuthReason } from '@gatehouse/contract';
import { auditedTransaction, storeAudit, type AuditEvent, type AuditSink } from '../audit/audit.js';
import type { ClientRecord, GrantRecord, RefreshPolicy, RefreshTokenInFamily } from '../primitives/records.js';
import type { Repository } from '../store/repository.js';
import type { Store } from '../store/store.js';
import { isScopeSubset } from './scope.js';
import { digestOf } from '../primitives/secrets.js';
import { newOpaqueSecret } from '../primitives/random.js';

/**
 * The refresh-token lifecycle (docs/architecture.md, "Grants and refresh-token families"), in one place.
 *
 * | state               | refresh                                                   |
 * |---------------------|-----------------------------------------------------------|
 * | active, rotation on | the token is used once more; a new head is issued         |
 * | active, rotation off| unchanged (its idle expiry moves on); access token only   |
 * | expired             | invalid_grant "refresh token has expired"                 |
 * | revoked             | invalid_grant "refresh token has been revoked"            |
 * | past rotation limit | invalid_grant "refresh token is past its rotation limit"  |
 * | used up, superseded | a replay: refused as above, its whole family revoked      |
 *
 * A refused token stays refused: nothing a refusal writes can make it usable again, and the
 * precedence below makes the description the same on every retry, now and later.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-6 RFC 6749 §6
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.14.2 RFC 9700 §4.14.2 (rotation, reuse detection)
 */
export type RefreshTokenState = 'active' | 'expired' | 'revoked' | 'past_rotation_limit';

/**
 * The state of a token. Where several apply, past rotation limit wins over revoked, which wins over
 * expired: a replayed token keeps saying "past its rotation limit" after the reuse it gave away got
 * its family revoked, and a revoked token does not start saying "expired" when its time runs out.
 */
export function refreshTokenState(
  { token, grant }: RefreshTokenInFamily,
  policy: RefreshPolicy,
  now: number,
): RefreshTokenState {
  if (token.useCount >= policy.rotationLimit || familyAtMaxRotations(grant, policy)) return 'past_rotation_limit';
  if (grant.revokedAt !== null || isSuperseded(token.id, grant)) return 'revoked';
  if (now >= Math.min(token.expiresAt, grant.expiresAt)) return 'expired';
  return 'active';
}

/**
 * Presenting a token that was used up or superseded means a second party holds a token of the
 * family: the whole family is revoked (RFC 9700 §4.14.2).
 */
export function isReplay({ token, grant }: RefreshTokenInFamily, policy: RefreshPolicy): boolean {
  return token.useCount >= policy.rotationLimit || isSuperseded(token.id, grant);
}

/** Only the family's newest head is live, and the token exchanged for it while it has uses left. */
function isSuperseded(tokenId: string, grant: GrantRecord): boolean {
  return tokenId !== grant.headTokenId && tokenId !== grant.previousTokenId;
}

function familyAtMaxRotations(grant: GrantRecord, policy: RefreshPolicy): boolean {
  return policy.maxRotations !== null && grant.rotationCount >= policy.maxRotations;
}

const REFUSAL: Record<Exclude<RefreshTokenState, 'active'>, FixedOAuthReason> = {
  past_rotation_limit: 'refresh_token_past_rotation_limit',
  revoked: 'refresh_token_revoked',
  expired: 'refresh_token_expired',
};

interface RefreshRequest {
  readonly presentedToken: string;
  readonly client: ClientRecord;
  /** The scope asked for; the grant's scope when undefined (RFC 6749 §6). */
  readonly scope: readonly string[] | undefined;
  readonly now: number;
  /** Where a detected reuse is reported, after it is stored with the revocation. */
  readonly audit?: AuditSink;
}

type RefreshOutcome =
  | {
      readonly ok: true;
      readonly grant: GrantRecord;
      readonly scope: readonly string[];
      readonly refreshToken: string | null;
    }
  | { readonly ok: false; readonly reason: FixedOAuthReason };

/**
 * Exchanges a refresh token in one atomic store transaction: of N concurrent exchanges of a
 * single-use token exactly one succeeds, and its new head is committed before this resolves.
 */
export async function exchangeRefreshToken(store: Store, request: RefreshRequest): Promise<RefreshOutcome> {
  const { client, now } = request;
  return auditedTransaction(store, request.audit, async (tx, audit): Promise<RefreshOutcome> => {
    const found = await tx.findRefreshToken(digestOf(request.presentedToken));
    if (!found) return refused('refresh_token_invalid');
    // Checked before the state, so a client learns nothing about another client's tokens.
    if (found.grant.clientId !== client.id) return refused('refresh_token_client_mismatch');
    const state = refreshTokenState(found, client.policy, now);
    if (state !== 'active') {
      const familyRevoked =
        isReplay(found, client.policy) && (await tx.revokeGrant(found.grant.id, 'reuse_detected', now));
      // Recorded with the revocation, in its transaction: once, since only the first replay revokes.
      if (familyRevoked) audit.push(...(await recordReuse(tx, found, now)));
      return refused(REFUSAL[state]);
    }
    const scope = request.scope ?? found.grant.scope;
    // Refused before anything is written, so the client keeps a usable token.
    if (!isScopeSubset(scope, found.grant.scope)) return refused('scope_exceeds_grant');
    const refreshToken = client.policy.rotation
      ? await rotate(tx, found, client.policy, now)
      : await keepAlive(tx, found, client.policy, now);
    return { ok: true, grant: found.grant, scope, refreshToken };
  });
}

async function recordReuse(tx: Repository, { grant }: RefreshTokenInFamily, now: number): Promise<AuditEvent[]> {
  const who = { at: now, clientId: grant.clientId, subject: grant.subject, grantId: grant.id };
  return [
    await storeAudit(tx, { ...who, event: 'refresh_token_reuse_detected' }),
    await storeAudit(tx, { ...who, event: 'grant_revoked', reason: 'reuse_detected' }),
  ];
}

function refused(reason: FixedOAuthReason): RefreshOutcome {
  return { ok: false, reason };
}

/** Uses the token once more and issues the family's new head; returns its plaintext. */
async function rotate(
  tx: Repository,
  { token, grant }: RefreshTokenInFamily,
  policy: RefreshPolicy,
  now: number,
): Promise<string | null> {
  await tx.updateRefreshToken(token.id, { useCount: token.useCount + 1, expiresAt: token.expiresAt });
  const rotationCount = grant.rotationCount + 1;
  // The rotation that reaches max_rotations issues no refresh token (RFC 6749 §6 makes it optional):
  // a token that could never be exchanged would only mislead the client.
  const next = policy.maxRotations !== null && rotationCount >= policy.maxRotations ? null : newOpaqueSecret();
  const nextId = next === null ? null : digestOf(next);
  if (nextId !== null) {
    await tx.insertRefreshToken({
      id: nextId,
      grantId: grant.id,
      useCount: 0,
      issuedAt: now,
      expiresAt: idleExpiry(grant, policy, now),
    });
  }
  await tx.updateGrantFamily(grant.id, { rotationCount, headTokenId: nextId, previousTokenId: token.id });
  return next;
}

/** Without rotation the same token stays in use; its idle expiry moves on. */
async function keepAlive(
  tx: Repository,
  { token, grant }: RefreshTokenInFamily,
  policy: RefreshPolicy,
  now: number,
): Promise<null> {
  await tx.updateRefreshToken(token.id, { useCount: token.useCount, expiresAt: idleExpiry(grant, policy, now) });
  return null;
}

/** A new idle expiry, never past the family's absolute expiry. */
export function idleExpiry(grant: Pick<GrantRecord, 'expiresAt'>, policy: RefreshPolicy, now: number): number {
  return Math.min(now + policy.refreshTokenTtl, grant.expiresAt);
}
