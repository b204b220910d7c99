import { per } from '../../abuse/rate-policies.js';
import { noStore } from '../../http/oauth-errors.js';
import { introspectToken, introspectTokenAtOnce } from '../grant-administration/index.js';
import { oauthEndpoint } from './endpoint.js';

/**
 * POST /introspect (RFC 7662 §2.1): confidential clients only; 200 for every authenticated caller.
 * `token_type_hint` is read (so a repeated one is refused) but a token's shape already says its type.
 */
export const introspectEndpoint = oauthEndpoint({
  name: 'introspect',
  method: 'POST',
  path: '/introspect',
  metadataKey: 'introspection_endpoint',
  clientAuthentication: 'confidential',
  // Resource servers may introspect on every request they serve.
  rateLimits: { client: per(12_000, 'min'), address: per(6000, 'min') },
  async handle({ reply, params, client }, services) {
    const token = params.require('token');
    params.get('token_type_hint');
    return noStore(reply).send(await introspectToken(services, client, token));
  },
  // A refresh token on SQLite is answered without an await (its reads and limits answer at once).
  handleAtOnce({ reply, params, client }, services) {
    const token = params.require('token');
    params.get('token_type_hint');
    const answer = introspectTokenAtOnce(services, client, token);
    return answer === null ? null : noStore(reply).send(answer);
  },
});
