import type { FastifyRequest } from 'fastify';
import type { RateLimitName } from '../../abuse/policies.js';
import { addressKey, type Charge } from '../../abuse/rate-limiter.js';
import type { ServerContext } from '../../context.js';
import { auditLogOf } from '../../http/audit-log.js';
import type { FormParams } from '../../http/form.js';
import { OAuthRateLimited } from '../../http/oauth-errors.js';
import type { ClientRecord } from '../../primitives/records.js';
import { authenticateClient, presentedClient } from '../client-authentication.js';

const LIMITS = {
  token: { client: 'token_client', address: 'token_address' },
  introspect: { client: 'introspect_client', address: 'introspect_address' },
} as const satisfies Record<string, { client: RateLimitName; address: RateLimitName }>;

/**
 * Client authentication under the endpoint's rate limits. An address or client already known to be
 * over its limit is refused before any work. Every authentication attempt then counts for the
 * address, and a successful one for the client too: a caller without the client's secret cannot use
 * up the client's budget.
 */
export async function authenticateWithinLimits(
  context: ServerContext,
  endpoint: keyof typeof LIMITS,
  request: FastifyRequest,
  params: FormParams,
): Promise<ClientRecord> {
  const { client: clientLimit, address: addressLimit } = LIMITS[endpoint];
  const presented = presentedClient(request.headers.authorization, params);
  const address: Charge = [addressLimit, addressKey(request.ip)];
  const known = context.rateLimits.knownRefusal([address, [clientLimit, presented.clientId]]);
  if (known > 0) throw new OAuthRateLimited(known);

  let client: ClientRecord;
  try {
    client = await authenticateClient(context.store, presented, {
      address: request.ip,
      now: context.clock.now(),
      audit: auditLogOf(request),
    });
  } catch (error) {
    const wait = await context.rateLimits.consume([address]);
    throw wait > 0 ? new OAuthRateLimited(wait) : error;
  }
  const wait = await context.rateLimits.consume([address, [clientLimit, client.id]]);
  if (wait > 0) throw new OAuthRateLimited(wait);
  return client;
}
