import { OAuthError } from '@gatehouse/contract';
import { grantHandler } from './grant.js';
import { pollDeviceCode } from '../device/index.js';
import { tokenResponse, userAccessClaims } from '../tokens/index.js';
import { withIdToken } from '../tokens/index.js';

/**
 * grant_type=urn:ietf:params:oauth:grant-type:device_code: the device polls with its device code
 * until the user has decided on the /device page. The states and their answers are the table in
 * device-code-redemption.ts; the grant it issues is like any other (its refresh tokens follow the
 * client's rotation policy).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8628#section-3.4 RFC 8628 §3.4
 */
export const deviceCodeGrant = grantHandler({
  grantType: 'urn:ietf:params:oauth:grant-type:device_code',
  notesDpopProof: true,
  async handle(params, client, services, proof) {
    const { store, clock, accessTokens } = services;
    const deviceCode = params.require('device_code');
    const now = clock.now();
    const outcome = await pollDeviceCode(store, { deviceCode, client, now, dpop: proof });
    if (!outcome.ok) throw new OAuthError(outcome.reason);
    const { grant, refreshToken, authTime, amr } = outcome;
    const access = await userAccessClaims(store, accessTokens, grant.subject);
    const response = tokenResponse(accessTokens, {
      client,
      subject: grant.subject,
      scope: grant.scope,
      grantId: grant.id,
      refreshToken,
      now,
      dpopJkt: proof?.jkt,
      access,
    });
    return withIdToken(services, response, { client, grant, scope: grant.scope, nonce: null, authTime, amr, now });
  },
});
