import { OAuthError, type DeviceAuthorizationResponse } from '@gatehouse/contract';
import { per } from '../../abuse/rate-policies.js';
import { noStore } from '../../http/oauth-errors.js';
import { createDeviceAuthorization } from '../device/index.js';
import { deviceCodeGrant } from '../grants/device-code.js';
import { isScopeSubset, parseScope } from '../tokens/index.js';
import { oauthEndpoint } from './endpoint.js';

/** Where the user enters the code, served with the other browser pages (`authorize/device.ts`). */
export const DEVICE_VERIFICATION_PATH = '/device';

/**
 * POST /device_authorization (RFC 8628 §3.1, §3.2): a device code and a user code for a client
 * registered for the device grant; public clients (a TV, a CLI) name themselves by `client_id`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8628#section-3.2 RFC 8628 §3.2
 */
export const deviceAuthorizationEndpoint = oauthEndpoint({
  name: 'device_authorization',
  method: 'POST',
  path: '/device_authorization',
  metadataKey: 'device_authorization_endpoint',
  clientAuthentication: 'public_allowed',
  // A device client may be an https URL client_id described by its document (docs/agents.md).
  resolvesClientIdMetadataDocuments: true,
  // Each request stores a row and starts a sign-in a person must finish: far rarer than refresh.
  rateLimits: { client: per(600, 'min'), address: per(60, 'min') },
  async handle({ reply, params, client }, { store, clock, issuer }) {
    // RFC 8628 §3.1 and RFC 6749 §5.2 unauthorized_client: the client must be registered for the grant.
    if (!client.grantTypes.includes(deviceCodeGrant.grantType)) throw new OAuthError('grant_type_not_allowed');
    // RFC 6749 §3.3, as RFC 8628 §3.1 says: the registered scope when none is asked for.
    const scope = parseScope(params.get('scope')) ?? client.scope;
    if (!isScopeSubset(scope, client.scope)) throw new OAuthError('scope_not_allowed');
    const created = await createDeviceAuthorization(store, { client, scope, now: clock.now() });
    const verificationUri = `${issuer}${DEVICE_VERIFICATION_PATH}`;
    const response: DeviceAuthorizationResponse = {
      device_code: created.deviceCode,
      user_code: created.userCode,
      verification_uri: verificationUri,
      // §3.3.1: the code already in the URL, for a QR code or a link; the page still asks to confirm it.
      verification_uri_complete: `${verificationUri}?${new URLSearchParams({ user_code: created.userCode })}`,
      expires_in: created.expiresIn,
      interval: created.interval,
    };
    return noStore(reply).send(response);
  },
});
