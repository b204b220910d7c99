import { createServer, type Server } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';

/**
 * A tiny upstream OpenID Provider for federation tests: discovery, JWKS, a token endpoint that
 * checks the client and the PKCE verifier, userinfo. Its authorization endpoint is not served: a
 * test "approves" the upstream authorization URL with `approve`, which gives the callback query the
 * provider would redirect with. `mode` makes the next ID tokens hostile.
 */
export type StubMode = 'good' | 'alg_none' | 'wrong_aud' | 'wrong_iss' | 'wrong_nonce' | 'expired' | 'wrong_key';

export interface StubUser {
  readonly sub: string;
  readonly claims: Readonly<Record<string, unknown>>;
}

export interface UpstreamStub {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  mode: StubMode;
  /** When set, the token endpoint answers this instead of checking the request (an outage, a refusal). */
  tokenAnswer: { readonly status: number; readonly body: unknown } | undefined;
  /** The issuer its discovery document names; its own by default (another one: a bad document). */
  discoveredIssuer: string | undefined;
  /** The callback query for an upstream authorization URL, as if `user` signed in there. */
  approve(authorizationUrl: URL, user: StubUser): string;
  /** The callback query of an error answer (RFC 6749 §4.1.2.1). */
  deny(authorizationUrl: URL, error: string): string;
  /**
   * When set, its authorization endpoint signs this user in at once and sends the browser back to
   * the request's redirect_uri (a browser test's upstream); unset, /authorize is not served.
   */
  autoApprove: StubUser | undefined;
  /** How many code exchanges it answered. */
  readonly tokenRequests: number;
  close(): Promise<void>;
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** What a stub listens on and serves besides the protocol. */
export interface StubOptions {
  /** A loopback address to listen on (127.0.0.1 by default; any of 127.0.0.0/8 works on Linux). */
  readonly host?: string;
  /** Files served as they are, by path (an icon, say), with their content type. */
  readonly files?: Readonly<Record<string, { readonly type: string; readonly body: Buffer }>>;
}

export async function startUpstreamStub(
  clientId = 'gatehouse',
  clientSecret = 'upstream-secret-0123456789',
  options: StubOptions = {},
): Promise<UpstreamStub> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const other = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  const codes = new Map<string, { nonce: string; challenge: string; user: StubUser; redirectUri: string }>();
  let tokenRequests = 0;
  let issuer = '';
  const stub = {
    mode: 'good' as StubMode,
    tokenAnswer: undefined as UpstreamStub['tokenAnswer'],
    discoveredIssuer: undefined as string | undefined,
    autoApprove: undefined as StubUser | undefined,
  };
  const idToken = async (aud: string, nonce: string, user: StubUser): Promise<string> => {
    const now = Math.floor(Date.now() / 1000);
    const mode = stub.mode;
    const payload = {
      ...user.claims,
      nonce: mode === 'wrong_nonce' ? 'another-nonce' : nonce,
    };
    if (mode === 'alg_none')
      return `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...payload, iss: issuer, aud, sub: user.sub, iat: now, exp: now + 300 })}.`;
    const key: CryptoKey = mode === 'wrong_key' ? other.privateKey : privateKey;
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(mode === 'wrong_iss' ? 'https://evil.example' : issuer)
      .setAudience(mode === 'wrong_aud' ? 'another-client' : aud)
      .setSubject(user.sub)
      .setIssuedAt(mode === 'expired' ? now - 3600 : now)
      .setExpirationTime(mode === 'expired' ? now - 1800 : now + 300)
      .sign(key);
  };
  function approve(url: URL, user: StubUser): string {
    const code = randomBytes(12).toString('base64url');
    codes.set(code, {
      nonce: url.searchParams.get('nonce') ?? '',
      challenge: url.searchParams.get('code_challenge') ?? '',
      redirectUri: url.searchParams.get('redirect_uri') ?? '',
      user,
    });
    return callback(url, { code });
  }
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    const file = options.files?.[url.pathname];
    if (file) {
      response.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length });
      return response.end(file.body);
    }
    if (url.pathname === '/.well-known/openid-configuration')
      return json(200, {
        issuer: stub.discoveredIssuer ?? issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        userinfo_endpoint: `${issuer}/userinfo`,
        end_session_endpoint: `${issuer}/logout`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256', 'none'],
        authorization_response_iss_parameter_supported: true,
        code_challenge_methods_supported: ['S256'],
      });
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/authorize' && stub.autoApprove !== undefined) {
      const back = `${url.searchParams.get('redirect_uri') ?? ''}?${approve(url, stub.autoApprove)}`;
      response.writeHead(302, { location: back, 'cache-control': 'no-store' });
      return response.end();
    }
    if (url.pathname === '/userinfo') {
      const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      const user = [...codes.values()].find((c) => `at-${c.user.sub}` === token)?.user;
      if (!user) return json(401, { error: 'invalid_token' });
      return json(200, { sub: user.sub, ...user.claims });
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        void (async () => {
          tokenRequests++;
          if (stub.tokenAnswer) return json(stub.tokenAnswer.status, stub.tokenAnswer.body);
          const form = new URLSearchParams(body);
          // RFC 6749 §2.3.1: id and secret are form-urlencoded before Basic encoding.
          const basic = Buffer.from((request.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
          const [id, secret] = basic.split(':').map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
          if (id !== clientId || secret !== clientSecret) return json(401, { error: 'invalid_client' });
          const code = codes.get(form.get('code') ?? '');
          if (!code) return json(400, { error: 'invalid_grant' });
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          if (createHash('sha256').update(verifier).digest('base64url') !== code.challenge)
            return json(400, { error: 'invalid_grant', error_description: 'PKCE' });
          if (form.get('redirect_uri') !== code.redirectUri) return json(400, { error: 'invalid_grant' });
          codes.set(`used-${randomBytes(4).toString('hex')}`, code);
          return json(200, {
            access_token: `at-${code.user.sub}`,
            token_type: 'Bearer',
            expires_in: 300,
            id_token: await idToken(clientId, code.nonce, code.user),
          });
        })();
      });
      return;
    }
    return json(404, { error: 'not_found' });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  issuer = `http://${host}:${typeof address === 'object' && address ? address.port : 0}`;
  const callback = (url: URL, params: Record<string, string>) => {
    const query = new URLSearchParams({ ...params, state: url.searchParams.get('state') ?? '', iss: issuer });
    return query.toString();
  };
  return Object.assign(stub, {
    issuer,
    clientId,
    clientSecret,
    approve,
    deny(url: URL, error: string) {
      return callback(url, { error });
    },
    get tokenRequests() {
      return tokenRequests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
