import { OAuthError } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { formParamsOf } from '../../http/form.js';
import { noStore } from '../../http/oauth-errors.js';
import { introspectToken } from '../introspection.js';
import { authenticateWithinLimits } from './authenticate-within-limits.js';

/**
 * POST /introspect (RFC 7662 §2.1): confidential clients only; 200 for every authenticated caller.
 * `token_type_hint` is read (so a repeated one is refused) but a token's shape already says its type.
 */
export function introspectEndpoint(app: FastifyInstance, context: ServerContext): void {
  app.post('/introspect', async (request, reply) => {
    const params = formParamsOf(request.body);
    const caller = await authenticateWithinLimits(context, 'introspect', request, params);
    if (caller.secretDigest === null) throw new OAuthError('client_authentication_failed');
    const token = params.require('token');
    params.get('token_type_hint');
    return noStore(reply).send(await introspectToken(context, caller, token));
  });
}
