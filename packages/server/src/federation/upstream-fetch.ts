import type { CustomFetch } from 'openid-client';
import { isHttpsOrLoopbackHttp, LOOPBACK_HTTP_RULE } from '../primitives/loopback.js';

/**
 * The only way the relying party reaches an upstream (openid-client's `customFetch`): discovery,
 * JWKS, the token endpoint, userinfo. It draws the two lines the error classifier
 * (upstream-failures.ts) needs and openid-client cannot draw for us:
 * - a request Gatehouse will not send (plain http off loopback, the one loopback rule of
 *   primitives/loopback.ts, the rule configuration checks too) is an {@link UpstreamRequestRefused}:
 *   the operator's configuration, never the provider being down;
 * - a request the upstream did not answer (refused, reset, unresolvable, timed out, cut off in the
 *   body) is an {@link UpstreamUnreachable}: the body is read here, whole, so a failure while
 *   reading it is one too, and not a parse error later.
 * Upstreams are the operator's choice, so their addresses may be private (an intranet Keycloak):
 * this is not the SSRF-safe fetch of client-named URLs (outbound/safe-fetch.ts).
 */

/** Gatehouse refused to send a request to the upstream: a configuration to fix, not an outage. */
export class UpstreamRequestRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamRequestRefused';
  }
}

/** The upstream did not answer a request (the network, DNS, a timeout). */
export class UpstreamUnreachable extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'UpstreamUnreachable';
  }
}

/** Statuses whose response has no body (Fetch §2.2.3 null body status). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

function why(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** openid-client's `customFetch` for every upstream request. */
export const upstreamFetch: CustomFetch = async (url, options) => {
  const target = new URL(url);
  if (!isHttpsOrLoopbackHttp(target))
    throw new UpstreamRequestRefused(
      `Gatehouse sends no request to ${target.origin}: an upstream's URLs (its issuer and every endpoint ` +
        `its discovery document names) must be ${LOOPBACK_HTTP_RULE}`,
    );
  try {
    const response = await fetch(url, options as RequestInit);
    const body = await response.arrayBuffer();
    return new Response(NULL_BODY_STATUS.has(response.status) ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  } catch (error) {
    throw new UpstreamUnreachable(`${target.origin} did not answer (${why(error)})`, { cause: error });
  }
};
