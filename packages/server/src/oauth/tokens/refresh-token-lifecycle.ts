import type { FixedOAuthReason } from '@gatehouse/contract';
import type { AuditTrail } from '../../audit/audit.js';
import type {
  ClientRecord,
  GrantRecord,
  RefreshPolicy,
  RefreshTokenInFamily,
  RefreshTokenRecord,
} from '../../primitives/records.js';
import type { Repository } from '../../store/repository.js';
import type { GrantAuthentication } from '../../store/oidc-repository.js';
import type { GrantHolderAccess, HolderAccessRead } from '../../store/access-resolution.js';
import { isScopeSubset } from './scope.js';
import { digestOf } from '../../primitives/secrets.js';
import { newOpaqueSecret } from '../../primitives/random.js';
import type { RefreshSuccessors } from './refresh-successors.js';
import { noteTokenProof, type UnnotedDpopProof } from '../sender-constraints/index.js';
import { revokeFamily } from './revoke-family.js';
import { OPENID_SCOPE } from './id-tokens.js';

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
 * | in the replay window| 200 with the same successor and a new access token; nothing consumed |
 *
 * The replay window (per client, `replay_window`, default off): the token whose exchange issued the
 * family's head, presented again by its client less than `replay_window` seconds after that
 * rotation, while the head is unused, alive and derived from it (refresh-successors.ts), is answered
 * with that same head, byte for byte. Two tabs or processes racing with one token therefore end up
 * holding the same newest token. It comes first: the token is used up (past its limit) or has uses
 * left (`rotation_limit` > 1: the window re-sends the successor rather than issuing another, which
 * would supersede it); at `max_rotations` the rotation issued no refresh token, and neither does its
 * replay. Outside the window, once the head was exchanged, for any older token or another client,
 * nothing changes. Rotation off has no successor and so no window.
 *
 * A refused token stays refused: nothing a refusal writes can make it usable again, and the
 * precedence below makes the description the same on every retry, now and later.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-6 RFC 6749 §6
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.14.2 RFC 9700 §4.14.2 (rotation, reuse detection)
 */
export type RefreshTokenState = 'active' | 'in_replay_window' | 'expired' | 'revoked' | 'past_rotation_limit';

/** The head a presented token's exchange issued, when it is that token's derived successor. */
export type SuccessorView = Pick<RefreshTokenRecord, 'useCount' | 'expiresAt'>;

/**
 * A presented token with its family, and (`successor`) the family's head when the exchange found it
 * to be this token's derived successor: null when that rotation issued none (max_rotations),
 * undefined when it is not (or was not looked up).
 */
export interface PresentedRefreshToken extends RefreshTokenInFamily {
  readonly successor?: SuccessorView | null;
}

/**
 * What a token's state is read from: a presented token (its whole family) or a brief of it
 * (`RefreshTokenBrief`, introspection's read).
 */
export interface TokenStateView {
  readonly token: Pick<RefreshTokenRecord, 'id' | 'useCount' | 'expiresAt'>;
  readonly grant: Pick<
    GrantRecord,
    'expiresAt' | 'rotationCount' | 'headTokenId' | 'previousTokenId' | 'revokedAt' | 'rotatedAt'
  >;
  readonly successor?: SuccessorView | null;
}

/**
 * The state of a token. The replay window comes first (above). Where several others apply, past
 * rotation limit wins over revoked, which wins over expired: a replayed token keeps saying "past its
 * rotation limit" after the reuse it gave away got its family revoked, and a revoked token does not
 * start saying "expired" when its time runs out.
 */
export function refreshTokenState(presented: TokenStateView, policy: RefreshPolicy, now: number): RefreshTokenState {
  if (isInReplayWindow(presented, policy, now)) return 'in_replay_window';
  const { token, grant } = presented;
  if (token.useCount >= policy.rotationLimit || familyAtMaxRotations(grant, policy)) return 'past_rotation_limit';
  if (grant.revokedAt !== null || isSuperseded(token.id, grant)) return 'revoked';
  if (now >= Math.min(token.expiresAt, grant.expiresAt)) return 'expired';
  return 'active';
}

/**
 * Presenting a token that was used up or superseded means a second party holds a token of the
 * family: the whole family is revoked (RFC 9700 §4.14.2).
 */
export function isReplay(presented: TokenStateView, policy: RefreshPolicy, now: number): boolean {
  if (isInReplayWindow(presented, policy, now)) return false;
  const { token, grant } = presented;
  return token.useCount >= policy.rotationLimit || isSuperseded(token.id, grant);
}

/** The replay window's row (see the table above). */
function isInReplayWindow({ token, grant, successor }: TokenStateView, policy: RefreshPolicy, now: number) {
  return (
    successor !== undefined &&
    policy.rotation &&
    token.id === grant.previousTokenId &&
    grant.revokedAt === null &&
    withinWindow(grant, policy, now) &&
    now < grant.expiresAt &&
    (successor === null || (successor.useCount === 0 && now < successor.expiresAt))
  );
}

function withinWindow(grant: TokenStateView['grant'], policy: RefreshPolicy, now: number): boolean {
  return grant.rotatedAt !== null && now < grant.rotatedAt + policy.replayWindow;
}

/** Only the family's newest head is live, and the token exchanged for it while it has uses left. */
function isSuperseded(tokenId: string, grant: TokenStateView['grant']): boolean {
  return tokenId !== grant.headTokenId && tokenId !== grant.previousTokenId;
}

function familyAtMaxRotations(grant: TokenStateView['grant'], policy: RefreshPolicy): boolean {
  return policy.maxRotations !== null && grant.rotationCount >= policy.maxRotations;
}

const REFUSAL: Record<Exclude<RefreshTokenState, 'active' | 'in_replay_window'>, FixedOAuthReason> = {
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
  readonly successors: RefreshSuccessors;
  /** The request's DPoP proof, if any (RFC 9449 §5): its key, and its jti to note in the exchange. */
  readonly dpop?: UnnotedDpopProof | undefined;
  /**
   * The access of the grant's user to read with the token, where the store can in the same
   * statement (PostgreSQL): the claims of the token this refresh answers.
   */
  readonly holderAccess?: HolderAccessRead | undefined;
}

type RefreshOutcome =
  | {
      readonly ok: true;
      readonly grant: GrantRecord;
      readonly scope: readonly string[];
      readonly refreshToken: string | null;
      /** The original sign-in (time, methods), for the ID token (OIDC Core §12.2); null without an OIDC one. */
      readonly signIn: GrantAuthentication | null;
      /** What the grant's user holds, when the store read it with the token (`RefreshRequest.holderAccess`). */
      readonly holder: GrantHolderAccess | undefined;
    }
  | { readonly ok: false; readonly reason: FixedOAuthReason };

/**
 * Exchanges a refresh token in one atomic store transaction: of N concurrent exchanges of a
 * single-use token exactly one succeeds, and its new head is committed before this resolves.
 */
export async function exchangeRefreshToken(trail: AuditTrail, request: RefreshRequest): Promise<RefreshOutcome> {
  const { client, now } = request;
  const { policy } = client;
  return trail.transaction(async (tx, audit): Promise<RefreshOutcome> => {
    // RFC 9449 §11.1: the proof's jti is noted in this transaction, first: one commit with the
    // rotation, and a replayed proof (invalid_dpop_proof) rotates nothing. No proof, no statement.
    if (request.dpop !== undefined) await noteTokenProof(tx, request.dpop);
    const inFamily = await tx.findRefreshToken(digestOf(request.presentedToken), request.holderAccess);
    if (!inFamily) return refused('refresh_token_invalid');
    // Checked before the state, so a client learns nothing about another client's tokens.
    if (inFamily.grant.clientId !== client.id) return refused('refresh_token_client_mismatch');
    // RFC 9449 §5: a token bound to a DPoP key answers only a proof of that key, before any other
    // rule and writing nothing: a thief without the key neither learns its state nor revokes the
    // family, the answer never changes on retry, and the replay window serves only the same key.
    if (inFamily.grant.dpopJkt != null && inFamily.grant.dpopJkt !== request.dpop?.jkt)
      return refused('refresh_token_dpop_key_mismatch');
    // Most exchanges cannot be a replay inside the window: they skip the lookup, its await and a copy.
    const found: PresentedRefreshToken = mayBeInReplayWindow(inFamily, request)
      ? { ...inFamily, successor: await successorOf(tx, inFamily, request) }
      : inFamily;
    const state = refreshTokenState(found, policy, now);
    if (state !== 'active' && state !== 'in_replay_window') {
      // Recorded with the revocation, in its transaction: once, since only the first replay revokes.
      if (isReplay(found, policy, now))
        await revokeFamily(tx, audit, found.grant, {
          reason: 'reuse_detected',
          at: now,
          detected: 'refresh_token_reuse_detected',
        });
      return refused(REFUSAL[state]);
    }
    const scope = request.scope ?? found.grant.scope;
    // Refused before anything is written, so the client keeps a usable token.
    if (!isScopeSubset(scope, found.grant.scope)) return refused('scope_exceeds_grant');
    if (state === 'in_replay_window') {
      await audit({ ...auditedGrant(found.grant, now), event: 'refresh_token_replay_served' });
      const successor = found.successor === null ? null : successorToken(request, found.token);
      return {
        ok: true,
        grant: found.grant,
        scope,
        refreshToken: successor,
        signIn: await noteUse(tx, found, scope, now),
        holder: inFamily.holder,
      };
    }
    const refreshToken = policy.rotation ? await rotate(tx, found, request) : await keepAlive(tx, found, policy, now);
    const signIn = await noteUse(tx, found, scope, now);
    return { ok: true, grant: found.grant, scope, refreshToken, signIn, holder: inFamily.holder };
  });
}

/**
 * An OpenID refresh notes the grant's use for the account page and reads its sign-in (time and
 * methods) for the ID token, in one statement of the exchange's transaction: committed with the rotation or not at all.
 */
async function noteUse(tx: Repository, { grant }: RefreshTokenInFamily, scope: readonly string[], now: number) {
  return scope.includes(OPENID_SCOPE) ? ((await tx.touchGrantUse(grant.id, now)) ?? null) : null;
}

/** The successor this token's last exchange issued: its plaintext, derived again. */
function successorToken(request: RefreshRequest, token: RefreshTokenRecord): string {
  return request.successors.successorOf(request.presentedToken, token.useCount - 1);
}

/** Whether the replay window may apply: the token was just rotated, within its client's window. */
function mayBeInReplayWindow({ token, grant }: RefreshTokenInFamily, request: RefreshRequest): boolean {
  const { policy } = request.client;
  return policy.rotation && token.id === grant.previousTokenId && withinWindow(grant, policy, request.now);
}

/**
 * The family's head when it is the presented token's derived successor, for a token the window may
 * apply to (one more read, on that path only); see `PresentedRefreshToken.successor`.
 */
async function successorOf(
  tx: Repository,
  { token, grant }: RefreshTokenInFamily,
  request: RefreshRequest,
): Promise<SuccessorView | null | undefined> {
  if (grant.headTokenId === null) return null;
  // A head issued while the window was off is random, not derived: then there is nothing to re-send.
  if (digestOf(successorToken(request, token)) !== grant.headTokenId) return undefined;
  return (await tx.findRefreshToken(grant.headTokenId))?.token;
}

function auditedGrant(grant: GrantRecord, now: number) {
  return { at: now, clientId: grant.clientId, subject: grant.subject, grantId: grant.id };
}

function refused(reason: FixedOAuthReason): RefreshOutcome {
  return { ok: false, reason };
}

/**
 * Uses the token once more and issues the family's new head; returns its plaintext. With a replay
 * window the head is derived from the token (refresh-successors.ts), so a replay can re-send it.
 */
async function rotate(tx: Repository, { token, grant }: RefreshTokenInFamily, request: RefreshRequest) {
  const { client, now } = request;
  const { policy } = client;
  const rotationCount = grant.rotationCount + 1;
  // The rotation that reaches max_rotations issues no refresh token (RFC 6749 §6 makes it optional):
  // a token that could never be exchanged would only mislead the client.
  const next =
    policy.maxRotations !== null && rotationCount >= policy.maxRotations
      ? null
      : policy.replayWindow > 0
        ? request.successors.successorOf(request.presentedToken, token.useCount)
        : newOpaqueSecret();
  const nextId = next === null ? null : digestOf(next);
  await tx.rotateFamily({
    token: { id: token.id, useCount: token.useCount + 1, expiresAt: token.expiresAt },
    successor:
      nextId === null
        ? null
        : { id: nextId, grantId: grant.id, useCount: 0, issuedAt: now, expiresAt: idleExpiry(grant, policy, now) },
    grant: { id: grant.id, rotationCount, headTokenId: nextId, previousTokenId: token.id, rotatedAt: now },
  });
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
