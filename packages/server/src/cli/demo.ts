import type { ServerContext } from '../context.js';
import { registerClient } from '../oauth/clients.js';

export const DEMO_CLIENT_ID = 'demo';

/**
 * On the embedded default's first start, registers a demo confidential client and says how to use
 * it. The secret is shown once: only its digest is stored.
 */
export async function ensureDemoClient({ store, clock, issuer }: ServerContext, print: (line: string) => void): Promise<void> {
  if (await store.findClient(DEMO_CLIENT_ID)) {
    print(`Demo client '${DEMO_CLIENT_ID}' exists; its secret was printed at first start (to start over: npx gatehouse clients remove ${DEMO_CLIENT_ID}, then restart).`);
    return;
  }
  const { secret } = await registerClient(store, {
    id: DEMO_CLIENT_ID, name: 'Gatehouse demo client', scope: ['contacts:read', 'contacts:write'],
    redirectUris: ['http://127.0.0.1:8765/callback'],
  }, clock.now());
  print([
    'Created the demo confidential client (the secret is shown only now):',
    `  client_id:     ${DEMO_CLIENT_ID}`,
    `  client_secret: ${secret}`,
    `  metadata:      ${issuer}/.well-known/oauth-authorization-server`,
    `  token:         ${issuer}/token`,
    `  introspect:    ${issuer}/introspect`,
    `  revoke:        ${issuer}/revoke`,
    `  jwks:          ${issuer}/jwks`,
    'Try: npx gatehouse grants issue --client demo --user alice --scope "contacts:read"',
  ].join('\n'));
}
