import type { ServerContext } from '../context.js';
import { registerClient } from '../oauth/clients/index.js';
import type { ClientRecord } from '../primitives/records.js';
import { DEMO_CALLBACK_PATH } from '../pages/demo-callback.js';
import { DEMO_PUBLIC_CLIENT_ID, DemoFlows } from '../pages/demo-flows.js';
import { generatePassword } from '../users/passwords.js';
import { addUser } from '../users/users.js';

const DEMO_CLIENT_ID = 'demo';
export { DEMO_PUBLIC_CLIENT_ID };
const DEMO_USERNAME = 'demo';
/** What the printed OpenID Connect request asks for (OIDC Core §3.1.2.1, §5.4). */
const OPENID_SCOPE = ['openid', 'profile', 'email'];
/** What the printed OAuth request asks for: the REST API's scopes. */
const API_SCOPE = ['contacts:read', 'contacts:write'];
/** What both demo clients may be granted. */
const DEMO_SCOPE = [...OPENID_SCOPE, ...API_SCOPE];
/** The demo user's claims, which the ID token and /userinfo release for `profile` and `email`. */
const DEMO_CLAIMS = { name: 'Demo User', email: 'demo@example.com', email_verified: false } as const;

/** The demo clients' redirect URI: the /demo/callback page of the server itself (served with --demo). */
const demoRedirectUri = (issuer: string): string => `${issuer}${DEMO_CALLBACK_PATH}`;

/**
 * On the embedded default's start (`npm start`): the demo confidential client, the demo public
 * client and the demo user, created on first start, and how to use them. Secrets and the password
 * are shown once: only their digests are stored. `flows` remembers the printed request's PKCE
 * verifier for the /demo/callback page.
 */
export async function ensureDemoClient(
  context: ServerContext,
  print: (line: string) => void,
  flows: DemoFlows = new DemoFlows(),
): Promise<void> {
  await ensureConfidentialClient(context, print);
  await ensurePublicClient(context, print);
  await ensureDemoUser(context, print);
  print(authorizationHint(context.issuer, flows));
  print(openIdHint(context.issuer, flows));
}

/** Whether a demo client made by an earlier version lacks a scope the printed requests ask for. */
const lacksDemoScope = (client: ClientRecord): boolean => DEMO_SCOPE.some((s) => !client.scope.includes(s));

async function ensureConfidentialClient(
  { store, clock, issuer }: ServerContext,
  print: (line: string) => void,
): Promise<void> {
  const existing = await store.findClient(DEMO_CLIENT_ID);
  if (existing) {
    // Made before the demo printed an OpenID Connect request: it is given the scopes, its secret kept.
    if (lacksDemoScope(existing)) {
      await store.replaceClient({ ...existing, scope: [...new Set([...existing.scope, ...DEMO_SCOPE])] });
      print(`Gave the demo client '${DEMO_CLIENT_ID}' the scopes ${DEMO_SCOPE.join(' ')}.`);
    }
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
      redirectUris: [demoRedirectUri(issuer)],
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
      `Try: npx gatehouse grants issue --client demo --user ${DEMO_USERNAME} --scope "contacts:read"`,
    ].join('\n'),
  );
}

/**
 * A public client (authentication `none`, PKCE required) for browser and command-line apps. One made
 * for another issuer (or before /demo/callback, or without the OpenID Connect scopes) is made again:
 * it has no secret to lose.
 */
async function ensurePublicClient(
  { store, clock, issuer }: ServerContext,
  print: (line: string) => void,
): Promise<void> {
  const redirectUri = demoRedirectUri(issuer);
  const existing = await store.findClient(DEMO_PUBLIC_CLIENT_ID);
  if (existing?.redirectUris.includes(redirectUri) && !lacksDemoScope(existing)) return;
  if (existing) await store.removeClient(DEMO_PUBLIC_CLIENT_ID);
  await registerClient(
    store,
    {
      id: DEMO_PUBLIC_CLIENT_ID,
      name: 'Gatehouse demo app',
      public: true,
      scope: DEMO_SCOPE,
      redirectUris: [redirectUri],
    },
    clock.now(),
  );
  print(
    `${existing ? 'Made again' : 'Created'} the demo public client '${DEMO_PUBLIC_CLIENT_ID}' (no secret; PKCE S256; redirect URI ${redirectUri}).`,
  );
}

async function ensureDemoUser({ store, clock }: ServerContext, print: (line: string) => void): Promise<void> {
  const existing = await store.findUser(DEMO_USERNAME);
  if (existing) {
    // Made by a version that gave it no claims: the ID token of the printed request shows these.
    if (Object.keys(existing.claims).length === 0)
      await store.updateUserClaims(DEMO_USERNAME, DEMO_CLAIMS, clock.now());
    print(
      `Demo user '${DEMO_USERNAME}' exists; its password was printed at first start (new one: npx gatehouse users passwd ${DEMO_USERNAME}).`,
    );
    return;
  }
  const password = generatePassword();
  await addUser(store, DEMO_USERNAME, password, clock.now(), DEMO_CLAIMS);
  print(
    [
      'Created the demo user for the sign-in page (the password is shown only now):',
      `  username: ${DEMO_USERNAME}`,
      `  password: ${password}`,
    ].join('\n'),
  );
}

/** A ready-to-open authorization URL for the public client, with a fresh PKCE pair (RFC 7636 §4.1-4.2). */
function authorizationHint(issuer: string, flows: DemoFlows): string {
  const { state, verifier, challenge } = flows.start(DEMO_PUBLIC_CLIENT_ID);
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: DEMO_PUBLIC_CLIENT_ID,
    redirect_uri: demoRedirectUri(issuer),
    scope: API_SCOPE.join(' '),
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return [
    'Sign in through the browser: open this authorization URL (PKCE code_verifier below):',
    `  ${issuer}/authorize?${query}`,
    `  code_verifier: ${verifier}`,
    `After "Allow" the browser comes back to ${demoRedirectUri(issuer)}, which shows the code and the curl`,
    'command that exchanges it at /token (within 60 seconds), this code_verifier filled in.',
  ].join('\n');
}

/**
 * A ready-to-open OpenID Connect authentication request (OIDC Core §3.1.2.1: scope `openid`, a
 * nonce), for the public client with PKCE; /demo/callback exchanges its code itself and shows the
 * ID token's claims.
 */
function openIdHint(issuer: string, flows: DemoFlows): string {
  const { state, challenge, nonce } = flows.start(DEMO_PUBLIC_CLIENT_ID, { openid: true });
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: DEMO_PUBLIC_CLIENT_ID,
    redirect_uri: demoRedirectUri(issuer),
    scope: OPENID_SCOPE.join(' '),
    state,
    nonce: nonce as string,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return [
    'Or sign in with OpenID Connect (scope openid profile email) by opening:',
    `  ${issuer}/authorize?${query}`,
    `There ${demoRedirectUri(issuer)} exchanges the code itself and shows the ID token's claims.`,
  ].join('\n');
}
