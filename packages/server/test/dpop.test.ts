import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { createAuthorizationCode } from '../src/oauth/tokens/authorization-codes.js';
import { DpopNonces } from '../src/oauth/sender-constraints/dpop-proofs.js';
import { digestOf, s256 } from '../src/primitives/secrets.js';
import type { Repository } from '../src/store/repository.js';
import { DIALECTS } from './_dialects.js';
import { dpopKey, type DpopKey } from './_dpop.js';
import { basicAuthorization, ensureTestUser, startTestServer, type TestClient, type TestServer } from './_server.js';

const ISSUER = 'http://gatehouse.test';
const TOKEN_URL = `${ISSUER}/token`;
const CALLBACK = 'https://app.example/callback';
const VERIFIER = 'v'.repeat(43);
const BOUND_REFUSAL = 'refresh token is bound to a DPoP key and the request has no proof signed by it';

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
}

for (const dialect of DIALECTS)
  describe(`DPoP, RFC 9449 [${dialect}]`, () => {
    let server: TestServer;
    let publicClient: TestClient;
    let confidential: TestClient;

    before(async () => {
      server = await startTestServer({ dialect });
      publicClient = await server.addClient({ id: 'spa', public: true, scope: ['openid', 'contacts:read'] });
      confidential = await server.addClient({ id: 'backend' });
    });
    after(() => server.close());

    async function token(as: TestClient, form: Record<string, string>, proof?: string | string[]): Promise<Answer> {
      const headers: Record<string, string> = typeof proof === 'string' ? { dpop: proof } : {};
      const response = Array.isArray(proof)
        ? await postWithRepeatedHeader(as, form, proof)
        : await server.post('/token', form, { as, headers });
      return {
        status: response.status,
        body: (await response.json()) as Record<string, unknown>,
        headers: response.headers,
      };
    }

    /** Two DPoP headers (§4.3 step 1 refuses them): fetch joins them, so send them raw. */
    async function postWithRepeatedHeader(as: TestClient, form: Record<string, string>, proofs: string[]) {
      const { request } = await import('node:http');
      const body = new URLSearchParams(form).toString();
      const url = new URL(`${server.url}/token`);
      return new Promise<Response>((resolve, reject) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: '/token',
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              'content-length': String(Buffer.byteLength(body)),
              authorization: basicAuthorization(as.id, as.secret ?? ''),
              dpop: proofs,
            },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () =>
              resolve(new Response(text || `{"raw":${res.statusCode}}`, { status: res.statusCode ?? 0 })),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    }

    const now = () => server.clock.now();
    const tokenProof = (key: DpopKey, extra: Partial<Parameters<DpopKey['proof']>[0]> = {}) =>
      key.proof({ htm: 'POST', htu: TOKEN_URL, iat: now(), ...extra });

    /** A code of `client` (bound by dpop_jkt when given), redeemed with `proof`. */
    async function codeFlow(client: TestClient, key: DpopKey | undefined, dpopJkt?: string): Promise<Answer> {
      const record = await server.context.store.findClient(client.id);
      const { subject } = await ensureTestUser(server.context.store, 'alice', now());
      const code = await createAuthorizationCode(server.context.store, {
        client: record ?? assert.fail('client'),
        subject,
        scope: ['contacts:read'],
        redirectUri: CALLBACK,
        codeChallenge: s256(VERIFIER),
        now: now(),
        dpopJkt,
      });
      const form = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: VERIFIER };
      return token(client, form, key === undefined ? undefined : await tokenProof(key));
    }

    const refreshOf = (client: TestClient, refreshToken: string, proof?: string) =>
      token(client, { grant_type: 'refresh_token', refresh_token: refreshToken }, proof);

    it('a token request with a valid proof gets token_type DPoP and an access token with cnf.jkt (RFC 9449 §5, §6.1), for every grant', async () => {
      const key = await dpopKey();
      const viaCode = await codeFlow(publicClient, key);
      assert.equal(viaCode.status, 200, JSON.stringify(viaCode.body));
      assert.equal(viaCode.body.token_type, 'DPoP');
      assert.deepEqual(decodeJwt(viaCode.body.access_token as string).cnf, { jkt: key.jkt });
      const viaCredentials = await token(
        confidential,
        { grant_type: 'client_credentials', scope: 'contacts:read' },
        await tokenProof(key),
      );
      assert.equal(viaCredentials.body.token_type, 'DPoP');
      assert.deepEqual(decodeJwt(viaCredentials.body.access_token as string).cnf, { jkt: key.jkt });
      // Without a proof nothing changes: a bearer token.
      const plain = await token(confidential, { grant_type: 'client_credentials', scope: 'contacts:read' });
      assert.equal(plain.body.token_type, 'Bearer');
      assert.equal(decodeJwt(plain.body.access_token as string).cnf, undefined);
    });

    it('proofs that break RFC 9449 §4.3 are refused with invalid_dpop_proof, never a 5xx', async () => {
      const key = await dpopKey();
      const other = await dpopKey();
      const form = { grant_type: 'client_credentials', scope: 'contacts:read' };
      const cases: Record<string, () => Promise<string | string[]>> = {
        'not a JWS (§4.3 step 1)': async () => 'not-a-jwt',
        'two DPoP headers (§4.3 step 1)': async () => [await tokenProof(key), await tokenProof(key)],
        'typ other than dpop+jwt (§4.3 step 4)': () =>
          key.proof({ htm: 'POST', htu: TOKEN_URL, iat: now() }, { typ: 'JWT' }),
        'alg none (§4.3 step 5)': async () => {
          const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
          return `${part({ alg: 'none', typ: 'dpop+jwt', jwk: key.jwk })}.${part({ htm: 'POST', htu: TOKEN_URL, iat: now(), jti: 'x' })}.`;
        },
        'HMAC alg (§4.3 step 5)': async () => {
          const { SignJWT } = await import('jose');
          return (
            new SignJWT({ htm: 'POST', htu: TOKEN_URL, jti: 'hmac' })
              // A symmetric "key" in the header: the typed header refuses it, so it goes in as a plain object.
              .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: { kty: 'oct', k: 'c2VjcmV0' } as object })
              .setIssuedAt(now())
              .sign(new TextEncoder().encode('secret'))
          );
        },
        'a private key in jwk (§4.3 step 7)': async () => {
          const { exportJWK } = await import('jose');
          const privateJwk = await exportJWK(key.privateKey);
          return key.proof({ htm: 'POST', htu: TOKEN_URL, iat: now() }, { jwk: privateJwk });
        },
        "signed by another key than its jwk's (§4.3 step 6)": () =>
          other.proof({ htm: 'POST', htu: TOKEN_URL, iat: now() }, { jwk: key.jwk }),
        'htm GET (§4.3 step 8)': () => tokenProof(key, { htm: 'GET' }),
        'htu of another endpoint (§4.3 step 9)': () => tokenProof(key, { htu: `${ISSUER}/introspect` }),
        'htu of another origin (§4.3 step 9)': () => tokenProof(key, { htu: 'http://evil.test/token' }),
        'iat 61 s old (§4.3 step 11)': () => tokenProof(key, { iat: now() - 61 }),
        'iat in the future (§4.3 step 11)': () => tokenProof(key, { iat: now() + 60 }),
      };
      for (const [name, make] of Object.entries(cases)) {
        const answer = await token(confidential, form, await make());
        assert.equal(answer.status, 400, `${name}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.error, 'invalid_dpop_proof', `${name}: ${JSON.stringify(answer.body)}`);
      }
    });

    it('htu is compared without query and fragment and after normalization (RFC 9449 §4.3 step 9)', async () => {
      const key = await dpopKey();
      const form = { grant_type: 'client_credentials', scope: 'contacts:read' };
      for (const htu of ['HTTP://Gatehouse.TEST:80/token?x=1#f', 'http://gatehouse.test/./token'])
        assert.equal((await token(confidential, form, await tokenProof(key, { htu }))).status, 200, htu);
    });

    it('a proof used twice is refused the second time (RFC 9449 §11.1: jti replay)', async () => {
      const key = await dpopKey();
      const proof = await tokenProof(key);
      const form = { grant_type: 'client_credentials', scope: 'contacts:read' };
      assert.equal((await token(confidential, form, proof)).status, 200);
      const replay = await token(confidential, form, proof);
      assert.equal(replay.status, 400);
      assert.equal(replay.body.error, 'invalid_dpop_proof');
    });

    it("a public client's bound refresh token needs a proof of the same key: else invalid_grant, identical on retry, and nothing is consumed (RFC 9449 §5)", async () => {
      const key = await dpopKey();
      const issued = await codeFlow(publicClient, key);
      const refreshToken = issued.body.refresh_token as string;
      const thief = await dpopKey();
      for (let attempt = 0; attempt < 2; attempt++) {
        for (const refused of [
          await refreshOf(publicClient, refreshToken),
          await refreshOf(publicClient, refreshToken, await tokenProof(thief)),
        ]) {
          assert.equal(refused.status, 400);
          assert.equal(refused.body.error, 'invalid_grant');
          assert.equal(refused.body.error_description, BOUND_REFUSAL);
        }
      }
      const own = await refreshOf(publicClient, refreshToken, await tokenProof(key));
      assert.equal(own.status, 200);
      assert.equal(own.body.token_type, 'DPoP');
      // The successor is bound to the same key.
      const next = await refreshOf(publicClient, own.body.refresh_token as string);
      assert.equal(next.body.error_description, BOUND_REFUSAL);
    });

    it('a proof replayed on a refresh is refused with invalid_dpop_proof and rotates nothing: the token stays usable (RFC 9449 §11.1)', async () => {
      const key = await dpopKey();
      const first = (await codeFlow(publicClient, key)).body.refresh_token as string;
      const second = (await codeFlow(publicClient, key)).body.refresh_token as string;
      const proof = await tokenProof(key);
      assert.equal((await refreshOf(publicClient, first, proof)).status, 200);
      const replay = await refreshOf(publicClient, second, proof);
      assert.equal(replay.status, 400);
      assert.equal(replay.body.error, 'invalid_dpop_proof');
      const stored = await server.context.store.findRefreshToken(digestOf(second));
      assert.equal(stored?.token.useCount, 0, 'the token was not used');
      assert.equal(stored?.grant.rotationCount, 0, 'the family was not rotated');
      const fresh = await refreshOf(publicClient, second, await tokenProof(key));
      assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    });

    it("a DPoP refresh and code redemption note the proof's jti in their own transaction: one commit, as without DPoP (RFC 9449 §11.1)", async () => {
      const { store } = server.context;
      const key = await dpopKey();
      const counted = async (request: () => Promise<Answer>) => {
        const counts = { transactions: 0, notedAlone: 0 };
        const transaction = store.transaction.bind(store);
        const noteDpopProof = store.noteDpopProof.bind(store);
        store.transaction = <T>(work: (tx: Repository) => Promise<T>): Promise<T> => {
          counts.transactions++;
          return transaction(work);
        };
        store.noteDpopProof = (id, expiresAt) => {
          counts.notedAlone++;
          return noteDpopProof(id, expiresAt);
        };
        try {
          assert.equal((await request()).status, 200);
        } finally {
          Object.assign(store, { transaction, noteDpopProof });
        }
        return counts;
      };
      let refreshToken = '';
      const redeemed = await counted(async () => {
        const answer = await codeFlow(publicClient, key);
        refreshToken = answer.body.refresh_token as string;
        return answer;
      });
      assert.deepEqual(redeemed, { transactions: 1, notedAlone: 0 });
      const refreshed = await counted(async () => refreshOf(publicClient, refreshToken, await tokenProof(key)));
      assert.deepEqual(refreshed, { transactions: 1, notedAlone: 0 });
    });

    it("a confidential client's refresh token stays bound by its authentication, not the key (RFC 9449 §5)", async () => {
      const key = await dpopKey();
      const issued = await codeFlow(confidential, key);
      assert.equal(issued.body.token_type, 'DPoP');
      const plain = await refreshOf(confidential, issued.body.refresh_token as string);
      assert.equal(plain.status, 200);
      assert.equal(plain.body.token_type, 'Bearer');
    });

    it('of 50 concurrent refreshes of one bound token with proofs of its key exactly one succeeds; the rest are invalid_grant, none a 5xx', async () => {
      const key = await dpopKey();
      const issued = await codeFlow(publicClient, key);
      const refreshToken = issued.body.refresh_token as string;
      const proofs = await Promise.all(Array.from({ length: 50 }, () => tokenProof(key)));
      const results = await Promise.all(proofs.map((proof) => refreshOf(publicClient, refreshToken, proof)));
      const ok = results.filter((r) => r.status === 200);
      assert.equal(ok.length, 1);
      for (const r of results.filter((x) => x.status !== 200)) {
        assert.equal(r.status, 400);
        assert.equal(r.body.error, 'invalid_grant');
      }
    });

    it('a code bound by dpop_jkt is redeemed only with a proof of that key (RFC 9449 §10)', async () => {
      const key = await dpopKey();
      const withoutProof = await codeFlow(publicClient, undefined, key.jkt);
      assert.equal(withoutProof.body.error, 'invalid_grant');
      const otherKey = await codeFlow(publicClient, await dpopKey(), key.jkt);
      assert.equal(otherKey.body.error, 'invalid_grant');
      const right = await codeFlow(publicClient, key, key.jkt);
      assert.equal(right.status, 200);
      assert.deepEqual(decodeJwt(right.body.access_token as string).cnf, { jkt: key.jkt });
    });

    it('a client registered with dpop_bound_access_tokens must send a proof (RFC 9449 §5.2)', async () => {
      const strict = await server.addClient({ id: 'strict', dpopBoundAccessTokens: true });
      const form = { grant_type: 'client_credentials', scope: 'contacts:read' };
      const refused = await token(strict, form);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error, 'invalid_dpop_proof');
      assert.equal((await token(strict, form, await tokenProof(await dpopKey()))).status, 200);
    });

    it('/v2 and /userinfo take Authorization: DPoP with a proof (RFC 9449 §7.1); a bound token as Bearer, a wrong ath, another key or a replayed proof are refused', async () => {
      const key = await dpopKey();
      // A user's token: the contacts belong to users (a client-only token may not read them).
      const issued = await codeFlow(confidential, key);
      const accessToken = issued.body.access_token as string;
      const url = `${ISSUER}/v2/contacts`;
      const call = (authorization: string, proof?: string) =>
        fetch(`${server.url}/v2/contacts`, {
          headers: { authorization, ...(proof === undefined ? {} : { dpop: proof }) },
        });
      const proof = await key.proof({ htm: 'GET', htu: url, iat: now(), accessToken });
      const first = await call(`DPoP ${accessToken}`, proof);
      assert.equal(first.status, 200, `${first.headers.get('www-authenticate')} ${await first.clone().text()}`);
      const replayed = await call(`DPoP ${accessToken}`, proof);
      assert.equal(replayed.status, 401);
      assert.match(
        replayed.headers.get('www-authenticate') ?? '',
        /^DPoP realm="[^"]*", algs="[^"]*ES256[^"]*", .*error="invalid_dpop_proof"/,
      );
      const asBearer = await call(`Bearer ${accessToken}`);
      assert.equal(asBearer.status, 401); // §7.2
      assert.match(asBearer.headers.get('www-authenticate') ?? '', /^DPoP .*error="invalid_token"/);
      const wrongAth = await call(
        `DPoP ${accessToken}`,
        await key.proof({ htm: 'GET', htu: url, iat: now(), accessToken: 'another' }),
      );
      assert.equal(wrongAth.status, 401);
      assert.equal(((await wrongAth.json()) as { type: string }).type.endsWith('/invalid-dpop-proof'), true);
      const other = await dpopKey();
      const otherKey = await call(
        `DPoP ${accessToken}`,
        await other.proof({ htm: 'GET', htu: url, iat: now(), accessToken }),
      );
      assert.equal(otherKey.status, 401);
      const noProof = await call(`DPoP ${accessToken}`);
      assert.equal(noProof.status, 401);

      // /userinfo with a DPoP-bound token of the code flow.
      const code = await codeFlow(publicClient, key);
      const userToken = code.body.access_token as string;
      const userinfo = await fetch(`${server.url}/userinfo`, {
        headers: {
          authorization: `DPoP ${userToken}`,
          dpop: await key.proof({ htm: 'GET', htu: `${ISSUER}/userinfo`, iat: now(), accessToken: userToken }),
        },
      });
      // The code grants contacts:read, not openid: the proof passed, the scope is what is refused.
      assert.equal(userinfo.status, 403);
      const badProof = await fetch(`${server.url}/userinfo`, {
        headers: {
          authorization: `DPoP ${userToken}`,
          dpop: await key.proof({ htm: 'POST', htu: `${ISSUER}/userinfo`, iat: now(), accessToken: userToken }),
        },
      });
      assert.equal(badProof.status, 401);
      assert.equal(((await badProof.json()) as { error: string }).error, 'invalid_dpop_proof');
    });

    it('the replay cache stays bounded: proofs whose window has closed are deleted', async () => {
      const { store } = server.context;
      assert.equal(await store.noteDpopProof('bounded-a', now() - 10), true);
      assert.equal(await store.noteDpopProof('bounded-a', now() - 10), false);
      assert.equal(await store.noteDpopProof('bounded-b', now() + 100), true);
      assert.ok((await store.deleteExpiredDpopProofs(now())) >= 1);
      assert.equal(await store.noteDpopProof('bounded-a', now() + 100), true, 'forgotten once expired');
      assert.equal(await store.noteDpopProof('bounded-b', now() + 100), false, 'kept while live');
    });

    it('nonces (RFC 9449 §8) rotate by time slot without state: two nodes on one store give and accept the same, an old one is refused', async () => {
      const a = await DpopNonces.load(server.context.store);
      const b = await DpopNonces.load(server.context.store);
      const t = 1_800_000_100;
      assert.equal(a.current(t), b.current(t));
      assert.ok(b.accepts(a.current(t), t + 300), 'the previous slot is still accepted');
      assert.ok(!b.accepts(a.current(t), t + 600), 'two slots later it is refused');
      assert.notEqual(a.current(t), a.current(t + 600));
      assert.ok(!b.accepts(undefined, t));
    });
  });

describe('DPoP nonces required at /token and the resources (RFC 9449 §8, §9)', () => {
  let server: TestServer;
  let client: TestClient;
  before(async () => {
    server = await startTestServer({ dpopNonces: true });
    client = await server.addClient({ id: 'nonce-app' });
  });
  after(() => server.close());

  it('a proof without the nonce is refused with use_dpop_nonce and a DPoP-Nonce header; the retry with it succeeds', async () => {
    const key = await dpopKey();
    const form = { grant_type: 'client_credentials', scope: 'contacts:read' };
    const first = await server.post('/token', form, {
      as: client,
      headers: { dpop: await key.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: server.clock.now() }) },
    });
    assert.equal(first.status, 400);
    assert.equal(((await first.json()) as { error: string }).error, 'use_dpop_nonce');
    const nonce = first.headers.get('dpop-nonce') ?? assert.fail('a DPoP-Nonce header');
    const retry = await server.post('/token', form, {
      as: client,
      headers: { dpop: await key.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: server.clock.now(), nonce }) },
    });
    assert.equal(retry.status, 200);
    const { access_token: accessToken } = (await retry.json()) as { access_token: string };
    const url = `${ISSUER}/v2/contacts`;
    const api = await fetch(`${server.url}/v2/contacts`, {
      headers: {
        authorization: `DPoP ${accessToken}`,
        dpop: await key.proof({ htm: 'GET', htu: url, iat: server.clock.now(), accessToken }),
      },
    });
    assert.equal(api.status, 401);
    assert.match(api.headers.get('www-authenticate') ?? '', /error="use_dpop_nonce"/);
    assert.equal(api.headers.get('dpop-nonce'), nonce);
    // Ten minutes later the nonce is stale: refused again, with a new one.
    server.clock.advance(600);
    const stale = await server.post('/token', form, {
      as: client,
      headers: { dpop: await key.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: server.clock.now(), nonce }) },
    });
    assert.equal(((await stale.json()) as { error: string }).error, 'use_dpop_nonce');
    assert.notEqual(stale.headers.get('dpop-nonce'), nonce);
  });
});
