import { OAuthError } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { auditLogOf } from '../../http/audit-log.js';
import { formParamsOf } from '../../http/form.js';
import { noStore } from '../../http/oauth-errors.js';
import { GRANT_HANDLERS } from '../grants/index.js';
import { authenticateWithinLimits } from './authenticate-within-limits.js';

/**
 * POST /token: validate the request, authenticate the client within the rate limits, hand over to
 * the grant type.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.2 RFC 6749 §3.2
 */
export function tokenEndpoint(app: FastifyInstance, context: ServerContext): void {
  app.post('/token', async (request, reply) => {
    const params = formParamsOf(request.body);
    const audit = auditLogOf(request);
    const grantType = params.require('grant_type');
    const grant = GRANT_HANDLERS.get(grantType);
    if (!grant) throw new OAuthError('grant_type_unsupported');
    const client = await authenticateWithinLimits(context, 'token', request, params);
    if (!client.grantTypes.includes(grant.grantType)) throw new OAuthError('grant_type_not_allowed');
    const response = await grant.handle(params, client, context, audit);
    return noStore(reply).send(response);
  });
}
