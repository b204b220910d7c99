import type { ClientRecord } from '../primitives/records.js';
import type { AccessTokens } from './access-tokens.js';

/** A successful token response (RFC 6749 §5.1). */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  readonly refresh_token?: string;
  readonly scope: string;
}

export interface TokenResponseRequest {
  readonly client: ClientRecord;
  readonly subject: string;
  readonly scope: readonly string[];
  readonly grantId: string | null;
  readonly refreshToken: string | null;
  readonly now: number;
}

export function tokenResponse(accessTokens: AccessTokens, r: TokenResponseRequest): TokenResponse {
  const ttl = r.client.accessTokenTtl;
  const access_token = accessTokens.mint({
    subject: r.subject,
    clientId: r.client.id,
    scope: r.scope,
    grantId: r.grantId,
    ttl,
    now: r.now,
  });
  return {
    access_token,
    token_type: 'Bearer',
    expires_in: ttl,
    ...(r.refreshToken === null ? {} : { refresh_token: r.refreshToken }),
    scope: r.scope.join(' '),
  };
}
