import type { ClientRecord, GrantRecord } from '../src/primitives/records.js';

/** The store tests' clock: a fixed second, so that nothing they store expires while they run. */
export const NOW = 1_800_000_000;

/** A confidential client `app` with refresh tokens that rotate, as the store's tests store it. */
export function appClient(scope: readonly string[] = ['a']): ClientRecord {
  return {
    id: 'app',
    name: 'App',
    secretDigest: null,
    redirectUris: ['https://app.example/cb'],
    grantTypes: ['refresh_token'],
    scope: [...scope],
    policy: {
      rotation: true,
      rotationLimit: 1,
      maxRotations: null,
      refreshTokenTtl: 3600,
      refreshTokenAbsoluteTtl: 86_400,
      replayWindow: 0,
    },
    accessTokenTtl: 300,
    resourceServer: false,
    createdAt: NOW,
    idTokenAlg: 'RS256',
    postLogoutRedirectUris: [],
    admin: false,
  };
}

/** A live grant of `app` to `alice` for scope `a`, not rotated yet. */
export function appGrant(id: string): GrantRecord {
  return {
    id,
    clientId: 'app',
    subject: 'alice',
    scope: ['a'],
    createdAt: NOW,
    expiresAt: NOW + 86_400,
    rotationCount: 0,
    headTokenId: null,
    previousTokenId: null,
    revokedAt: null,
    revokedReason: null,
    rotatedAt: null,
  };
}
