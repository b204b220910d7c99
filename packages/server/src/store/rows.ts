import type { Selectable } from 'kysely';
import type { GrantTypeName } from '../primitives/grant-types.js';
import type {
  AuthorizationCodeRecord,
  ClientRecord,
  GrantLiveness,
  GrantRecord,
  GrantRevocationReason,
  JsonWebKeySet,
  RefreshTokenRecord,
  SigningKeyRecord,
  TokenExchangePolicy,
  GrantExchange,
} from '../primitives/records.js';
import { SECOND_FACTOR_POLICIES, type SecondFactorPolicy } from '../primitives/records.js';
import type {
  AuthorizationCodesTable,
  ClientsTable,
  GrantsTable,
  RefreshTokensTable,
  SigningKeysTable,
} from './schema.js';

/** Conversions between table rows and domain records; nothing else. */

const scopeList = (s: string): string[] => (s === '' ? [] : s.split(' '));

export function clientFromRow(r: Selectable<ClientsTable>): ClientRecord {
  return {
    id: r.id,
    name: r.name,
    secretDigest: r.secret_digest,
    redirectUris: JSON.parse(r.redirect_uris) as string[],
    // Only names of the vocabulary are ever stored: registration checks them (oauth/clients/clients.ts).
    grantTypes: JSON.parse(r.grant_types) as GrantTypeName[],
    scope: scopeList(r.scope),
    policy: {
      rotation: r.rotation === 1,
      rotationLimit: Number(r.rotation_limit),
      maxRotations: r.max_rotations === null ? null : Number(r.max_rotations),
      refreshTokenTtl: Number(r.refresh_token_ttl),
      refreshTokenAbsoluteTtl: Number(r.refresh_token_absolute_ttl),
      replayWindow: Number(r.replay_window),
    },
    accessTokenTtl: Number(r.access_token_ttl),
    resourceServer: r.resource_server === 1,
    createdAt: Number(r.created_at),
    idTokenAlg: r.id_token_alg === 'ES256' ? 'ES256' : 'RS256',
    postLogoutRedirectUris: JSON.parse(r.post_logout_redirect_uris) as string[],
    admin: r.admin === 1,
    // Absent (the defaults) for a client stored without a policy, as before 0020.
    ...(r.token_exchange === null || r.token_exchange === undefined
      ? {}
      : { tokenExchange: JSON.parse(r.token_exchange) as TokenExchangePolicy }),
    // Set only when the client has them (0022), so that a client without keys reads as before.
    ...(r.jwks === null ? {} : { jwks: JSON.parse(r.jwks) as JsonWebKeySet }),
    ...(r.jwks_uri === null ? {} : { jwksUri: r.jwks_uri }),
    ...(r.auth_method === 'private_key_jwt' ? { authMethod: 'private_key_jwt' as const } : {}),
    ...(r.require_par === 1 ? { requirePushedAuthorizationRequests: true } : {}),
    // Present only when set, like the records made before migration 0021.
    ...(r.dpop_bound_access_tokens === 1 ? { dpopBoundAccessTokens: true } : {}),
    ...(isSecondFactorPolicy(r.second_factor) ? { secondFactor: r.second_factor } : {}),
    // Present only when set (0023).
    ...(r.profile === 'fapi2' ? { profile: 'fapi2' as const } : {}),
  };
}

export function clientToRow(c: ClientRecord): Selectable<ClientsTable> {
  return {
    id: c.id,
    name: c.name,
    secret_digest: c.secretDigest,
    redirect_uris: JSON.stringify(c.redirectUris),
    grant_types: JSON.stringify(c.grantTypes),
    scope: c.scope.join(' '),
    rotation: c.policy.rotation ? 1 : 0,
    rotation_limit: c.policy.rotationLimit,
    max_rotations: c.policy.maxRotations,
    refresh_token_ttl: c.policy.refreshTokenTtl,
    refresh_token_absolute_ttl: c.policy.refreshTokenAbsoluteTtl,
    access_token_ttl: c.accessTokenTtl,
    resource_server: c.resourceServer ? 1 : 0,
    created_at: c.createdAt,
    replay_window: c.policy.replayWindow,
    id_token_alg: c.idTokenAlg ?? null,
    post_logout_redirect_uris: JSON.stringify(c.postLogoutRedirectUris ?? []),
    admin: c.admin ? 1 : 0,
    token_exchange: c.tokenExchange === undefined ? null : JSON.stringify(c.tokenExchange),
    jwks: c.jwks ? JSON.stringify(c.jwks) : null,
    jwks_uri: c.jwksUri ?? null,
    auth_method: c.authMethod ?? null,
    require_par: c.requirePushedAuthorizationRequests ? 1 : 0,
    dpop_bound_access_tokens: c.dpopBoundAccessTokens ? 1 : 0,
    second_factor: c.secondFactor ?? null,
    profile: c.profile ?? null,
  };
}

export function grantFromRow(r: Selectable<GrantsTable>): GrantRecord {
  return {
    id: r.id,
    clientId: r.client_id,
    subject: r.subject,
    scope: scopeList(r.scope),
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    rotationCount: Number(r.rotation_count),
    headTokenId: r.head_token_id,
    previousTokenId: r.previous_token_id,
    revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
    revokedReason: r.revoked_reason as GrantRevocationReason | null,
    rotatedAt: r.rotated_at === null ? null : Number(r.rotated_at),
    ...(r.dpop_jkt == null ? {} : { dpopJkt: r.dpop_jkt }),
    ...(r.exchange == null ? {} : { exchange: JSON.parse(r.exchange) as GrantExchange }),
    ...(r.parent_grant_id == null ? {} : { parentGrantId: r.parent_grant_id }),
    ...(r.organization_id == null ? {} : { organizationId: r.organization_id }),
  };
}

/** A grant a revocation changed: who it was of, for the audit trail. */
export type RevokedGrant = Pick<GrantRecord, 'id' | 'clientId' | 'subject'>;

export function revokedGrantFromRow(r: Pick<Selectable<GrantsTable>, 'id' | 'client_id' | 'subject'>): RevokedGrant {
  return { id: r.id, clientId: r.client_id, subject: r.subject };
}

export function grantLivenessFromRow(r: Pick<Selectable<GrantsTable>, 'revoked_at' | 'subject'>): GrantLiveness {
  return { revokedAt: r.revoked_at === null ? null : Number(r.revoked_at), subject: r.subject };
}

export function grantToRow(g: GrantRecord): Selectable<GrantsTable> {
  return {
    id: g.id,
    client_id: g.clientId,
    subject: g.subject,
    scope: g.scope.join(' '),
    created_at: g.createdAt,
    expires_at: g.expiresAt,
    rotation_count: g.rotationCount,
    head_token_id: g.headTokenId,
    previous_token_id: g.previousTokenId,
    revoked_at: g.revokedAt,
    revoked_reason: g.revokedReason,
    rotated_at: g.rotatedAt,
    dpop_jkt: g.dpopJkt ?? null,
    exchange: g.exchange == null ? null : JSON.stringify(g.exchange),
    parent_grant_id: g.parentGrantId ?? null,
    organization_id: g.organizationId ?? null,
  };
}

export function refreshTokenFromRow(r: Selectable<RefreshTokensTable>): RefreshTokenRecord {
  return {
    id: r.id,
    grantId: r.grant_id,
    useCount: Number(r.use_count),
    issuedAt: Number(r.issued_at),
    expiresAt: Number(r.expires_at),
  };
}

export function codeFromRow(r: Selectable<AuthorizationCodesTable>): AuthorizationCodeRecord {
  return {
    id: r.id,
    clientId: r.client_id,
    subject: r.subject,
    scope: scopeList(r.scope),
    redirectUri: r.redirect_uri,
    codeChallenge: r.code_challenge,
    codeChallengeMethod: 'S256',
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    usedAt: r.used_at === null ? null : Number(r.used_at),
    grantId: r.grant_id,
    nonce: r.nonce,
    authTime: r.auth_time === null ? null : Number(r.auth_time),
    amr: amrFromColumn(r.amr),
    ...(r.dpop_jkt == null ? {} : { dpopJkt: r.dpop_jkt }),
    ...(r.organization_id == null ? {} : { organizationId: r.organization_id }),
  };
}

export function codeToRow(c: AuthorizationCodeRecord): Selectable<AuthorizationCodesTable> {
  return {
    id: c.id,
    client_id: c.clientId,
    subject: c.subject,
    scope: c.scope.join(' '),
    redirect_uri: c.redirectUri,
    code_challenge: c.codeChallenge,
    code_challenge_method: c.codeChallengeMethod,
    created_at: c.createdAt,
    expires_at: c.expiresAt,
    used_at: c.usedAt,
    grant_id: c.grantId,
    nonce: c.nonce ?? null,
    auth_time: c.authTime ?? null,
    amr: amrToColumn(c.amr),
    dpop_jkt: c.dpopJkt ?? null,
    organization_id: c.organizationId ?? null,
  };
}

export function signingKeyFromRow(r: Selectable<SigningKeysTable>): SigningKeyRecord {
  return {
    kid: r.kid,
    alg: r.alg === 'RS256' ? 'RS256' : 'ES256',
    privateJwk: JSON.parse(r.private_jwk) as SigningKeyRecord['privateJwk'],
    publicJwk: JSON.parse(r.public_jwk) as JsonWebKey,
    createdAt: Number(r.created_at),
    activatesAt: Number(r.activates_at ?? r.created_at),
    retiredAt: r.retired_at === null ? null : Number(r.retired_at),
  };
}

/** RFC 8176 `amr` values as a column holds them: space-separated, null for none. */
export function amrToColumn(amr: readonly string[] | null | undefined): string | null {
  return amr == null || amr.length === 0 ? null : amr.join(' ');
}

export function amrFromColumn(column: string | null): readonly string[] | null {
  return column === null || column === '' ? null : column.split(' ');
}

function isSecondFactorPolicy(value: string | null): value is SecondFactorPolicy {
  return (SECOND_FACTOR_POLICIES as readonly (string | null)[]).includes(value);
}
