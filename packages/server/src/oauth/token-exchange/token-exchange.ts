import { OAuthError, type AccessTokenClaims, type ActorClaim, type FixedOAuthReason } from '@gatehouse/contract';
import type { JWTPayload } from 'jose';
import type { ClientRecord, TokenExchangePolicy } from '../../primitives/records.js';
import { DEFAULT_TOKEN_EXCHANGE_POLICY } from '../../primitives/records.js';
import type { Repository } from '../../store/repository.js';
import { normalizeUsername } from '../../users/users.js';
import type { AccessTokens } from '../tokens/index.js';
import { clientStillHolds } from '../tokens/index.js';
import { grantableScope } from '../clients/index.js';
import { issuesRefreshToken } from '../tokens/index.js';
import { isScopeSubset } from '../tokens/index.js';
import type { TrustedIssuers } from './trusted-issuers.js';

/** RFC 8693 §3: the token type identifiers this server takes and issues. */
export const TOKEN_TYPE = {
  accessToken: 'urn:ietf:params:oauth:token-type:access_token',
  jwt: 'urn:ietf:params:oauth:token-type:jwt',
  refreshToken: 'urn:ietf:params:oauth:token-type:refresh_token',
} as const;

/** Subject and actor tokens: this server's access tokens (JWTs), or JWTs of a trusted issuer. */
const PRESENTABLE_TYPES: readonly string[] = [TOKEN_TYPE.accessToken, TOKEN_TYPE.jwt];

/** What a token exchange is asked, as plain data (RFC 8693 §2.1). */
export interface ExchangeRequest {
  readonly client: ClientRecord;
  readonly subjectToken: string;
  readonly subjectTokenType: string;
  readonly actorToken: string | undefined;
  readonly actorTokenType: string | undefined;
  readonly requestedTokenType: string | undefined;
  /** RFC 8693 `audience` and RFC 8707 `resource`: at most one target each. */
  readonly audience: string | undefined;
  readonly resource: string | undefined;
  readonly scope: readonly string[] | undefined;
  readonly now: number;
}

interface ExchangeServices {
  readonly store: Pick<Repository, 'findGrantLiveness' | 'findClient' | 'findUser'>;
  readonly accessTokens: AccessTokens;
  readonly trustedIssuers: TrustedIssuers;
  readonly issuer: string;
}

/** What the exchange decided: the token to mint, and what the audit trail records. */
export interface ExchangeDecision {
  /** This server's subject of the user (or a client's id, for a client's own token). */
  readonly subject: string;
  readonly scope: readonly string[];
  readonly audience: string;
  /** The actor chain of the new token; undefined for impersonation. */
  readonly act: ActorClaim | undefined;
  /** The subject token's grant, whose revocation ends the new token too; null when it had none. */
  readonly grantId: string | null;
  /** The subject token's expiry: the new token never outlives it. */
  readonly notAfter: number;
  readonly issuedTokenType: string;
  /**
   * Whether the answer carries a refresh token too (§2.1 requested_token_type refresh_token, by the
   * policy): of a new grant of the client whose parent is `grantId`.
   */
  readonly refreshToken: boolean;
  /** The subject token's `roles` and `groups`: the new token carries no role or group beyond them. */
  readonly subjectAccess: { readonly roles?: unknown; readonly groups?: unknown };
}

/** A subject or actor token, verified, as the exchange sees it. */
interface PresentedToken {
  readonly subject: string;
  /** The issuer of the identity, when it is not this server. */
  readonly foreignIssuer: string | undefined;
  readonly clientId: string | undefined;
  readonly audiences: readonly string[];
  readonly scope: readonly string[];
  readonly exp: number;
  readonly grantId: string | null;
  readonly act: ActorClaim | undefined;
  readonly mayAct: ActorClaim | undefined;
  /** Its `roles` and `groups` claims as it carried them (RFC 9068 §2.2.3.1), unchecked. */
  readonly access: { readonly roles?: unknown; readonly groups?: unknown };
}

/** The refusal of an exchange, with its catalog reason (RFC 8693 §2.2.2). */
export class ExchangeRefused extends OAuthError {
  readonly refusal: FixedOAuthReason;
  constructor(reason: FixedOAuthReason) {
    super(reason);
    this.refusal = reason;
  }
}

/**
 * Decides an RFC 8693 token exchange: which subject, scope, audience and actor chain the new
 * access token has, or why none is issued. No store write: a refusal changes nothing, and the same
 * request gets the same refusal every time.
 */
export async function decideExchange(services: ExchangeServices, r: ExchangeRequest): Promise<ExchangeDecision> {
  const policy: TokenExchangePolicy = r.client.tokenExchange ?? DEFAULT_TOKEN_EXCHANGE_POLICY;
  // §2.1 requested_token_type: access tokens (JWTs); a refresh token with one only where the
  // client's policy allows it (and the client may use the refresh_token grant at all).
  const requested = r.requestedTokenType ?? TOKEN_TYPE.accessToken;
  const withRefreshToken =
    requested === TOKEN_TYPE.refreshToken && policy.refreshTokens === true && issuesRefreshToken(r.client);
  if (!PRESENTABLE_TYPES.includes(requested) && !withRefreshToken)
    throw new ExchangeRefused('token_exchange_requested_type_unsupported');
  if (!PRESENTABLE_TYPES.includes(r.subjectTokenType))
    throw new ExchangeRefused('token_exchange_token_type_unsupported');
  if (r.actorToken !== undefined && !PRESENTABLE_TYPES.includes(r.actorTokenType ?? ''))
    throw new ExchangeRefused('token_exchange_token_type_unsupported');

  // §2.1: the target, by `audience` or `resource` (RFC 8707); this server's own API by default.
  if (r.audience !== undefined && r.resource !== undefined && r.audience !== r.resource)
    throw new ExchangeRefused('token_exchange_targets_differ');
  const audience = r.audience ?? r.resource ?? services.issuer;
  if (!services.accessTokens.audiences.includes(audience) && !policy.audiences.includes(audience))
    throw new ExchangeRefused('token_exchange_target_not_allowed');

  const subject = await presented(services, r.subjectToken, r.now, 'token_exchange_subject_invalid');
  // §2.1 "what": a token issued to this client, or one addressed to an API this client serves.
  const mine = subject.foreignIssuer === undefined && subject.clientId === r.client.id;
  const addressed = subject.audiences.some(
    (aud) => policy.subjectAudiences.includes(aud) || (subject.foreignIssuer !== undefined && aud === r.client.id),
  );
  if (!mine && !addressed) throw new ExchangeRefused('token_exchange_subject_not_allowed');

  // §1.1: delegation names the actor (the actor token's, else the client's own); impersonation,
  // without an actor token and only by policy, names none.
  let actor: ActorClaim | undefined;
  if (r.actorToken !== undefined) {
    const token = await presented(services, r.actorToken, r.now, 'token_exchange_actor_invalid');
    // The actor token must be the client's own: a token of this server issued to it, or a trusted
    // issuer's addressed to it or to this server.
    const held =
      token.foreignIssuer === undefined
        ? token.clientId === r.client.id
        : token.audiences.includes(r.client.id) || token.audiences.includes(services.issuer);
    if (!held) throw new ExchangeRefused('token_exchange_actor_invalid');
    actor = {
      sub: token.subject,
      ...(token.foreignIssuer === undefined ? {} : { iss: token.foreignIssuer }),
      ...(token.clientId === undefined ? {} : { client_id: token.clientId }),
    };
  } else if (!policy.impersonation) actor = { sub: r.client.id, client_id: r.client.id };

  // §4.4 may_act: when the subject token names who may act for it, the actor (or, impersonating,
  // the client) must be that party.
  if (subject.mayAct !== undefined && !mayAct(subject.mayAct, actor ?? { sub: r.client.id }, services.issuer))
    throw new ExchangeRefused('token_exchange_may_act_mismatch');

  // Down-scoping only: never wider than the subject token, nor than what the client may request.
  const allowed = subject.scope.filter((s) => grantableScope(r.client).includes(s));
  const scope = r.scope ?? allowed;
  if (scope.length === 0 || !isScopeSubset(scope, allowed))
    throw new ExchangeRefused('token_exchange_scope_exceeds_subject');

  // A refresh token lives under a grant revoked with the subject token's (its parent): only a token
  // of this server under a user's grant has one; a trusted issuer's or a grant-less token has none.
  if (withRefreshToken && (subject.foreignIssuer !== undefined || subject.grantId === null))
    throw new ExchangeRefused('token_exchange_refresh_subject_ungranted');

  return {
    subject: subject.subject,
    scope,
    audience,
    // §4.1: the current actor outermost, the subject token's chain nested within.
    act: actor === undefined ? subject.act : { ...actor, ...(subject.act === undefined ? {} : { act: subject.act }) },
    grantId: subject.grantId,
    notAfter: subject.exp,
    // §2.2.1: issued_token_type names the token in `access_token`; asked for a refresh token, that
    // is still an access token, and the refresh token travels in `refresh_token` (§2.2.1, OPTIONAL).
    issuedTokenType: withRefreshToken ? TOKEN_TYPE.accessToken : requested,
    refreshToken: withRefreshToken,
    subjectAccess: subject.access,
  };
}

/** Verifies a subject or actor token: one of this server's (live), else a trusted issuer's. */
async function presented(
  services: ExchangeServices,
  token: string,
  now: number,
  refusal: 'token_exchange_subject_invalid' | 'token_exchange_actor_invalid',
): Promise<PresentedToken> {
  const local = await services.accessTokens.checkIssued(token, now);
  if (local !== undefined) {
    const liveSubject = await liveSubjectOf(services, local);
    if (liveSubject === undefined) throw new ExchangeRefused(refusal);
    return {
      subject: liveSubject,
      foreignIssuer: undefined,
      clientId: local.client_id,
      audiences: typeof local.aud === 'string' ? [local.aud] : local.aud,
      scope: local.scope.split(' ').filter((s) => s !== ''),
      exp: local.exp,
      grantId: local.grant_id ?? null,
      act: local.act,
      mayAct: undefined,
      access: { roles: local.roles, groups: local.groups },
    };
  }
  const foreign = await services.trustedIssuers.verify(token, now);
  if (foreign === undefined) throw new ExchangeRefused(refusal);
  const { payload } = foreign;
  // A trusted issuer's user is this server's user of the same username, enabled, under this server's subject.
  const user =
    foreign.username === undefined ? undefined : await services.store.findUser(normalizeUsername(foreign.username));
  if (user === undefined || (user.disabledAt ?? null) !== null)
    throw new ExchangeRefused('token_exchange_unknown_user');
  return {
    subject: user.subject,
    foreignIssuer: foreign.issuer,
    clientId: typeof payload.client_id === 'string' ? payload.client_id : undefined,
    audiences: payload.aud === undefined ? [] : typeof payload.aud === 'string' ? [payload.aud] : payload.aud,
    scope: scopeOf(payload),
    exp: payload.exp ?? now,
    grantId: null,
    act: actorOf(payload.act),
    mayAct: actorOf(payload.may_act),
    access: { roles: payload['roles'], groups: payload['groups'] },
  };
}

/**
 * The subject of a token of this server while it is live: its grant's subject while the grant is not
 * revoked (as the access-token check has it), or, grant-less, its `sub` while its client holds it.
 */
async function liveSubjectOf(services: ExchangeServices, claims: AccessTokenClaims): Promise<string | undefined> {
  if (claims.grant_id === undefined) return (await clientStillHolds(services.store, claims)) ? claims.sub : undefined;
  const grant = await services.store.findGrantLiveness(claims.grant_id);
  return grant !== undefined && grant.revokedAt === null ? grant.subject : undefined;
}

/** RFC 8693 §4.2 `scope` (space-separated), or the common `scp` array. */
function scopeOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === 'string') return payload.scope.split(' ').filter((s) => s !== '');
  if (Array.isArray(payload.scp)) return payload.scp.filter((s): s is string => typeof s === 'string');
  return [];
}

/** An `act` or `may_act` claim, if it is one (a JSON object with a string `sub`), nested ones kept. */
function actorOf(value: unknown, depth = 0): ActorClaim | undefined {
  if (depth > 16 || typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.sub !== 'string') return undefined;
  const nested = actorOf(v.act, depth + 1);
  return {
    sub: v.sub,
    ...(typeof v.iss === 'string' ? { iss: v.iss } : {}),
    ...(typeof v.client_id === 'string' ? { client_id: v.client_id } : {}),
    ...(nested === undefined ? {} : { act: nested }),
  };
}

/** §4.4: `may_act` names the party by `sub` (and `iss`, when given; this server's when absent). */
function mayAct(allowed: ActorClaim, actor: ActorClaim, issuer: string): boolean {
  if (allowed.sub !== actor.sub) return false;
  return allowed.iss === undefined || allowed.iss === (actor.iss ?? issuer);
}
