import { ClientConfigurationError, InvalidResponseError, OAuthResponseError, TransportError } from './errors.js';
import { jsonObjectOf, postForm } from './http.js';
import type { OAuthClient } from './oauth-client.js';
import { isTransient } from './retry.js';
import { DEVICE_CODE_GRANT_TYPE } from './token-endpoint.js';
import type { DeviceAuthorizationResponse } from '@gatehouse/contract';
import type { DpopKey } from './dpop.js';
import type { TokenEndpointResponse } from './wire.js';

/** RFC 8628 §3.2: the interval when the response gives none; §3.5: what each slow_down adds. */
const DEFAULT_INTERVAL_SECONDS = 5;
const SLOW_DOWN_SECONDS = 5;

/**
 * Asks for a device code and a user code (RFC 8628 §3.1) at the endpoint the metadata names. As
 * every request of the SDK: transient failures retried, `invalid_client` and `unauthorized_client`
 * (a client not registered for the device grant, §3.2) thrown as ClientConfigurationError, as is a
 * server whose metadata names no device authorization endpoint.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8628#section-3.1 RFC 8628 §3.1
 */
export async function requestDeviceAuthorization(
  client: OAuthClient,
  scope: string | undefined,
): Promise<DeviceAuthorizationResponse> {
  const { device_authorization_endpoint: endpoint, issuer } = await client.discover();
  if (endpoint === undefined)
    throw new ClientConfigurationError(
      `the metadata of ${issuer} names no device_authorization_endpoint: the server does not offer the device flow`,
    );
  const body = await client.call(
    async (ctx) =>
      jsonObjectOf(
        await postForm(ctx, endpoint, scope === undefined ? {} : { scope }),
        'device authorization endpoint',
      ),
    isTransient,
  );
  const bad = (what: string): never => {
    throw new InvalidResponseError(`the device authorization response ${what}`, 200);
  };
  for (const name of ['device_code', 'user_code', 'verification_uri'])
    if (typeof body[name] !== 'string' || body[name] === '') bad(`has no ${name}`);
  if (typeof body.expires_in !== 'number' || !(body.expires_in > 0)) bad('has no expires_in');
  if (body.interval !== undefined && (typeof body.interval !== 'number' || !(body.interval >= 0)))
    bad('has an interval that is not a number of seconds');
  return body as unknown as DeviceAuthorizationResponse;
}

export interface DevicePolling {
  /** Waits between polls; setTimeout by default (tests let time pass instead). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Epoch milliseconds. */
  readonly now: () => number;
  /** The key the tokens are to be bound to (RFC 9449 §5), instead of the client's. */
  readonly dpop?: DpopKey | undefined;
}

/**
 * Polls the token endpoint with the device code until the user has decided (RFC 8628 §3.4, §3.5):
 * waits `interval` seconds before each poll, 5 more after every slow_down, and doubles the wait
 * after a failure that may go away (no answer, 5xx, 429: §3.5 asks to back off). Returns the tokens;
 * throws the server's refusal (access_denied, expired_token, invalid_grant, …) as it came, or the
 * last failure of an outage that outlasts the device code.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8628#section-3.5 RFC 8628 §3.5
 */
export async function pollDeviceToken(
  client: OAuthClient,
  authorization: DeviceAuthorizationResponse,
  { sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)), now, dpop }: DevicePolling,
): Promise<TokenEndpointResponse> {
  const deadline = now() + authorization.expires_in * 1000;
  let intervalMs = (authorization.interval ?? DEFAULT_INTERVAL_SECONDS) * 1000;
  let waitMs = intervalMs;
  const request = { grant_type: DEVICE_CODE_GRANT_TYPE, device_code: authorization.device_code } as const;
  for (;;) {
    await sleep(waitMs);
    try {
      return await client.tokenRequest(request, () => false, dpop);
    } catch (error) {
      const answer = error instanceof OAuthResponseError ? error.error : undefined;
      if (answer === 'slow_down') intervalMs += SLOW_DOWN_SECONDS * 1000;
      if (answer === 'slow_down' || answer === 'authorization_pending') {
        waitMs = intervalMs;
        continue;
      }
      // The server's own answers (expired_token among them) end the polling; only an outage is waited out.
      if (!(error instanceof TransportError || isTransient(error))) throw error;
      waitMs = Math.max(waitMs * 2, intervalMs);
      if (now() + waitMs >= deadline) throw error;
    }
  }
}
