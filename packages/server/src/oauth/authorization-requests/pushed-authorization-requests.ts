import type { Repository } from '../../store/repository.js';
import { newOpaqueSecret } from '../../primitives/random.js';
import { digestOf } from '../../primitives/secrets.js';

/** RFC 9126 §2.2: the request_uri of a pushed request is this URN with a random part. */
export const PUSHED_REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

/**
 * The handle of the sign-in that used a pushed request: the login and consent forms, and the
 * redirects between them, carry it instead of the request_uri, which was used once.
 */
const SIGN_IN_FLOW_PREFIX = 'urn:gatehouse:authorization-flow:';

/** RFC 9126 §2.2: `expires_in` of a request_uri, short (the browser is sent on at once) and < 600 s. */
export const PUSHED_REQUEST_LIFETIME = 90;

/** How long the sign-in that used a pushed request may take, from its first /authorize. */
const SIGN_IN_FLOW_LIFETIME = 30 * 60;

/**
 * Stores a validated authorization request pushed by its client (RFC 9126 §2.2) and returns its
 * request_uri. Only the digest of the random part is stored.
 */
export async function pushAuthorizationRequest(
  store: Pick<Repository, 'insertPushedRequest'>,
  request: { readonly clientId: string; readonly parameters: string; readonly now: number },
): Promise<{ readonly requestUri: string; readonly expiresIn: number }> {
  const reference = newOpaqueSecret();
  await store.insertPushedRequest(
    {
      id: digestOf(reference),
      clientId: request.clientId,
      parameters: request.parameters,
      expiresAt: request.now + PUSHED_REQUEST_LIFETIME,
    },
    request.now,
  );
  return { requestUri: `${PUSHED_REQUEST_URI_PREFIX}${reference}`, expiresIn: PUSHED_REQUEST_LIFETIME };
}

/** What a request_uri at /authorize gives: the pushed parameters, and what the sign-in carries on. */
export interface PushedParameters {
  readonly parameters: string;
  /** The request_uri the sign-in's forms and redirects carry from here on. */
  readonly continuation: string;
}

/**
 * The pushed request a request_uri names, for `clientId`. A request_uri of the PAR endpoint is used
 * here, once (RFC 9126 §4: one-time use), by one conditional update that every process sharing the
 * store sees; it then names a sign-in, whose own handle the rest of the flow carries. `peek` reads
 * without using (POST /authorize only redirects to GET). Undefined when the request_uri is of another
 * kind, unknown, expired, already used, or another client's.
 */
export async function pushedParameters(
  store: Pick<Repository, 'usePushedRequest' | 'findUnusedPushedRequest' | 'findPushedRequestOfFlow'>,
  requestUri: string,
  use: { readonly clientId: string; readonly now: number; readonly peek: boolean },
): Promise<PushedParameters | undefined> {
  const { clientId, now } = use;
  if (requestUri.startsWith(SIGN_IN_FLOW_PREFIX)) {
    const flow = digestOf(requestUri.slice(SIGN_IN_FLOW_PREFIX.length));
    const found = await store.findPushedRequestOfFlow(flow, clientId, now);
    return found && { parameters: found.parameters, continuation: requestUri };
  }
  if (!requestUri.startsWith(PUSHED_REQUEST_URI_PREFIX)) return undefined;
  const id = digestOf(requestUri.slice(PUSHED_REQUEST_URI_PREFIX.length));
  if (use.peek) {
    const found = await store.findUnusedPushedRequest(id, clientId, now);
    return found && { parameters: found.parameters, continuation: requestUri };
  }
  const flow = newOpaqueSecret();
  const used = await store.usePushedRequest(id, clientId, {
    now,
    flowDigest: digestOf(flow),
    flowExpiresAt: now + SIGN_IN_FLOW_LIFETIME,
  });
  return used && { parameters: used.parameters, continuation: `${SIGN_IN_FLOW_PREFIX}${flow}` };
}
