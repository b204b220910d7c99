import { createHash, randomBytes } from 'node:crypto';
import type { ServerContext } from '../context.js';
import { registerClient } from '../oauth/clients.js';
import { generatePassword } from '../users/passwords.js';
import { addUser } from '../users/users.js';

const DEMO_CLIENT_ID = 'demo';
export const DEMO_PUBLIC_CLIENT_ID = 'demo-public';
const DEMO_USERNAME = 'demo';
const DEMO_REDIRECT_URI = 'http://127.0.0.1:8765/callback';
const DEMO_SCOPE = ['contacts:read', 'contacts:write'];

/**
 * On the embedded default's start (`npm start`): the demo confidential client, the demo public
 * client and the demo user, created on first start, and how to use them. Secrets and the password
 * are shown once: only their digests are stored.
 */
export async function ensureDemoClient(context: ServerContext, print: (line: string) => void): Promise<void> {
  await ensureConfidentialClient(context, print);
  await ensurePublicClient(context, print);
  await ensureDemoUser(context, print);
  print(authorizationHint(context.issuer));
}

async function ensureConfidentialClient(
  { store, clock, issuer }: ServerContext,
  print: (line: string) => void,
): Promise<void> {
  if (await store.findClient(DEMO_CLIENT_ID)) {
    print(
      `Demo client '${DEMO_CLIENT_ID}' exists; its secret was printed at first start (to start over: npx gatehouse clients remove ${DEMO_CLIENT_ID}, then restart).`,
    );
    return;
  }
  const { secret } = await registerClient(
    store,
    {
      id: DEMO_CLIENT_ID,
      name: 'Gatehouse demo client',
      scope: DEMO_SCOPE,
      redirectUris: [DEMO_REDIRECT_URI],
    },
    clock.now(),
  );
  print(
    [
      'Created the demo confidential client (the secret is shown only now):',
      `  client_id:     ${DEMO_CLIENT_ID}`,
      `  client_secret: ${secret}`,
      `  metadata:      ${issuer}/.well-known/oauth-authorization-server`,
      `  authorize:     ${issuer}/authorize`,
      `  token:         ${issuer}/token`,
      `  introspect:    ${issuer}/introspect`,
      `  revoke:        ${issuer}/revoke`,
      `  jwks:          ${issuer}/jwks`,
      'Try: npx gatehouse grants issue --client demo --user alice --scope "contacts:read"',
    ].join('\n'),
  );
}

/** A public client (authentication `none`, PKCE required) for browser and command-line apps. */
async function ensurePublicClient({ store, clock }: ServerContext, print: (line: string) => void): Promise<void> {
  if (await store.findClient(DEMO_PUBLIC_CLIENT_ID)) return;
  await registerClient(
    store,
    {
      id: DEMO_PUBLIC_CLIENT_ID,
      name: 'Gatehouse demo app',
      public: true,
      scope: DEMO_SCOPE,
      redirectUris: [DEMO_REDIRECT_URI],
    },
    clock.now(),
  );
  print(
    `Created the demo public client '${DEMO_PUBLIC_CLIENT_ID}' (no secret; PKCE S256; redirect URI ${DEMO_REDIRECT_URI}).`,
  );
}

async function ensureDemoUser({ store, clock }: ServerContext, print: (line: string) => void): Promise<void> {
  if (await store.findUser(DEMO_USERNAME)) {
    print(
      `Demo user '${DEMO_USERNAME}' exists; its password was printed at first start (new one: npx gatehouse users passwd ${DEMO_USERNAME}).`,
    );
    return;
  }
  const password = generatePassword();
  await addUser(store, DEMO_USERNAME, password, clock.now());
  print(
    [
      'Created the demo user for the sign-in page (the password is shown only now):',
      `  username: ${DEMO_USERNAME}`,
      `  password: ${password}`,
    ].join('\n'),
  );
}

/** A ready-to-open authorization URL for the public client, with a fresh PKCE pair (RFC 7636 §4.1-4.2). */
function authorizationHint(issuer: string): string {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: DEMO_PUBLIC_CLIENT_ID,
    redirect_uri: DEMO_REDIRECT_URI,
    scope: DEMO_SCOPE.join(' '),
    state: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  return [
    'Sign in through the browser: open this authorization URL (PKCE code_verifier below):',
    `  ${issuer}/authorize?${query}`,
    `  code_verifier: ${verifier}`,
    `After "Allow" the browser goes to ${DEMO_REDIRECT_URI}?code=…&state=…&iss=… (nothing listens there: copy the code`,
    'from the address bar) and, within 60 seconds:',
    `  curl -d grant_type=authorization_code -d client_id=${DEMO_PUBLIC_CLIENT_ID} -d redirect_uri=${DEMO_REDIRECT_URI} \\`,
    `       -d code_verifier=${verifier} -d code=<code> ${issuer}/token`,
    'Your own PKCE pair: code_verifier = 43+ random URL-safe characters, code_challenge = BASE64URL(SHA-256(code_verifier)).',
  ].join('\n');
}
