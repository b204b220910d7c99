// node-oidc-provider as the peer: a minimal provider with its built-in memory adapter, refresh
// token rotation on, introspection enabled, and one confidential client (client_secret_basic).
// Its refresh tokens come from a grant; with no browser here, each chain's grant and first refresh
// token are created through the provider's own models before it listens — what an authorization
// code exchange would have stored — as the provider's own test suite does.
//
// Arguments: the number of chains, then `openid` for OpenID Connect grants (scope openid, so that
// every refresh answers a new ID token, signed RS256 as the client's default, like Gatehouse's
// refresh-oidc scenario), or `dpop` for a public client whose refresh tokens are bound to a DPoP key
// (RFC 9449 §5; the provider's `dpop` feature: a proof verified and its jti noted per refresh, like
// Gatehouse's refresh-dpop scenario). Prints one JSON line: port, client credentials, the tokens
// (and for `dpop`, the key's private JWK for the load generator and the proofs' htu).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import Provider from 'oidc-provider';
import { thumbprint } from '../lib/dpop-proof.mjs';
import { setStorage } from 'oidc-provider/lib/adapters/memory_adapter.js';

// The memory adapter keeps its entries in a QuickLRU of 1,000 — two entries per refresh, so a chain
// that waits for more than ~500 other refreshes (a scheduling hiccup on a busy machine) finds its
// refresh token evicted and gets invalid_grant. The same adapter, on its own QuickLRU, holds 50,000.
const providerRequire = createRequire(import.meta.resolve('oidc-provider'));
const { default: QuickLRU } = await import(pathToFileURL(providerRequire.resolve('quick-lru')).href);
setStorage(new QuickLRU({ maxSize: 50_000 }));

const chains = Number(process.argv[2] ?? 64);
const openid = process.argv[3] === 'openid';
const dpop = process.argv[3] === 'dpop';
const dpopJwk = dpop ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) : undefined;
const CLIENT_ID = 'bench';
const CLIENT_SECRET = randomBytes(32).toString('base64url');
// offline_access is what enables the refresh_token grant in oidc-provider; openid adds an ID token to each.
const SCOPE = `${openid ? 'openid ' : ''}offline_access contacts:read`;
const DAY = 24 * 60 * 60;

// Keys of its own, so the provider does not run on (and warn about) its development keys.
const signing = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

const provider = new Provider('http://127.0.0.1', {
  clients: [{
    client_id: CLIENT_ID, ...(dpop ? { token_endpoint_auth_method: 'none' } : { client_secret: CLIENT_SECRET, token_endpoint_auth_method: 'client_secret_basic' }),
    grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], redirect_uris: ['https://client.example/callback'],
  }],
  jwks: { keys: [{ ...rsa, kid: 'rsa', use: 'sig' }, { ...signing, kid: 'ec', use: 'sig' }] },
  cookies: { keys: [randomBytes(32).toString('base64url')] },
  scopes: SCOPE.split(' '),
  rotateRefreshToken: true,
  features: {
    devInteractions: { enabled: false },
    dPoP: { enabled: dpop },
    // A client sees its own tokens, as in Gatehouse.
    introspection: { enabled: true, allowedPolicy: async (ctx, client, token) => token.clientId === client.clientId },
  },
  ttl: { AccessToken: 300, RefreshToken: 14 * DAY, Grant: 90 * DAY },
});

const client = await provider.Client.find(CLIENT_ID);
const tokens = [];
for (let i = 0; i < chains; i++) {
  const accountId = `user-${i}`;
  const grant = new provider.Grant({ accountId, clientId: CLIENT_ID });
  grant.addOIDCScope(SCOPE);
  const grantId = await grant.save();
  // An OpenID grant's refresh token carries its sign-in's time and methods, as a code exchange stores them.
  const signIn = openid ? { authTime: Math.floor(Date.now() / 1000), amr: ['pwd'] } : {};
  const binding = dpop ? { jkt: thumbprint(dpopJwk) } : {};
  const refreshToken = new provider.RefreshToken({ accountId, client, grantId, scope: SCOPE, gty: 'authorization_code', ...signIn, ...binding });
  tokens.push(await refreshToken.save());
}

const server = provider.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  const proofs = dpop ? { dpopJwk, htu: `http://127.0.0.1:${port}/token` } : {};
  process.stdout.write(`${JSON.stringify({ ready: true, port, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, tokens, ...proofs })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
