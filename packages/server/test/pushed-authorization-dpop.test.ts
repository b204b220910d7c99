/**
 * DPoP with pushed authorization requests (RFC 9449 §10.1): a proof sent to /par is checked as the
 * token endpoint checks one (§4.3: signature, htm/htu, the iat window, jti replay, the nonce when
 * required), and the pushed request's code is bound to its key exactly as `dpop_jkt` binds it; both
 * at once must name the same key.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { addTestUser, authorizationQuery, CALLBACK, obtainCode, PageBrowser, pkce } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { dpopKey, type DpopKey } from './_dpop.js';
import { assertOAuthError, ISSUER } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

const PAR_URL = `${ISSUER}/par`;
const TOKEN_URL = `${ISSUER}/token`;

function pushedForm(clientId: string, challenge: string, overrides: Record<string, string | undefined> = {}) {
  return Object.fromEntries(new URLSearchParams(authorizationQuery(clientId, challenge, overrides)));
}

for (const dialect of DIALECTS)
  describe(`DPoP at the pushed authorization request endpoint (RFC 9449 §10.1) [${dialect}]`, () => {
    let server: TestServer;
    let spa: TestClient;
    let web: TestClient;

    before(async () => {
      server = await startTestServer({ dialect });
      const common = { redirectUris: [CALLBACK], scope: ['openid', 'contacts:read'] };
      spa = await server.addClient({ id: 'spa', name: 'SPA', public: true, ...common });
      web = await server.addClient({ id: 'web', name: 'Web', ...common });
      await addTestUser(server);
    });
    after(async () => server?.close());

    const now = () => server.clock.now();
    const parProof = (key: DpopKey, extra: Partial<Parameters<DpopKey['proof']>[0]> = {}) =>
      key.proof({ htm: 'POST', htu: PAR_URL, iat: now(), ...extra });

    async function push(client: TestClient, form: Record<string, string>, proof?: string): Promise<Response> {
      return server.post('/par', form, { as: client, headers: proof === undefined ? {} : { dpop: proof } });
    }

    /** Pushes with `proof`, runs the pages, and returns the code with its verifier. */
    async function pushedCode(client: TestClient, proof: string | undefined, overrides = {}) {
      const { verifier, challenge } = pkce();
      const response = await push(client, pushedForm(client.id, challenge, overrides), proof);
      const text = await response.text();
      assert.equal(response.status, 201, text);
      const { request_uri } = JSON.parse(text) as { request_uri: string };
      const query = new URLSearchParams({ client_id: client.id, request_uri }).toString();
      const { code } = await obtainCode(new PageBrowser(server), query);
      return { code: code as string, verifier };
    }

    async function redeem(client: TestClient, code: { code: string; verifier: string }, key?: DpopKey) {
      const form = { grant_type: 'authorization_code', code: code.code, redirect_uri: CALLBACK };
      const headers: Record<string, string> =
        key === undefined ? {} : { dpop: await key.proof({ htm: 'POST', htu: TOKEN_URL, iat: now() }) };
      return server.post('/token', { ...form, code_verifier: code.verifier }, { as: client, headers });
    }

    it("a code pushed with key 1's proof is refused with key 2's proof and without one, and redeemed with key 1's (RFC 9449 §10.1)", async () => {
      const key1 = await dpopKey();
      const key2 = await dpopKey();
      const code = await pushedCode(spa, await parProof(key1));
      await assertOAuthError(await redeem(spa, code, key2), {
        error: 'invalid_grant',
        description: 'authorization code is bound to a DPoP key (dpop_jkt) and the request has no proof signed by it',
      });
      await assertOAuthError(await redeem(spa, code), { error: 'invalid_grant' });
      const right = await redeem(spa, code, key1);
      const body = (await right.json()) as { token_type: string; access_token: string };
      assert.equal(right.status, 200, JSON.stringify(body));
      assert.equal(body.token_type, 'DPoP');
      assert.deepEqual(decodeJwt(body.access_token).cnf, { jkt: key1.jkt });
    });

    it("a confidential client's pushed code is bound to the proof's key too (RFC 9449 §10.1)", async () => {
      const key1 = await dpopKey();
      const code = await pushedCode(web, await parProof(key1));
      await assertOAuthError(await redeem(web, code, await dpopKey()), { error: 'invalid_grant' });
      assert.equal((await redeem(web, code, key1)).status, 200);
    });

    it('a proof ten minutes old at /par is refused with invalid_dpop_proof (RFC 9449 §4.3 step 11)', async () => {
      const key = await dpopKey();
      const { challenge } = pkce();
      const stale = await parProof(key, { iat: now() - 600 });
      await assertOAuthError(await push(spa, pushedForm(spa.id, challenge), stale), {
        error: 'invalid_dpop_proof',
        description: 'the DPoP proof is invalid',
      });
    });

    it('a proof that does not name POST /par, or is no proof, is refused at /par (RFC 9449 §4.3 steps 1, 8, 9)', async () => {
      const key = await dpopKey();
      const { challenge } = pkce();
      for (const proof of [
        await key.proof({ htm: 'POST', htu: TOKEN_URL, iat: now() }),
        await key.proof({ htm: 'GET', htu: PAR_URL, iat: now() }),
        'not-a-jwt',
      ]) {
        await assertOAuthError(await push(spa, pushedForm(spa.id, challenge), proof), { error: 'invalid_dpop_proof' });
      }
    });

    it('a proof used twice at /par is refused the second time (RFC 9449 §11.1)', async () => {
      const key = await dpopKey();
      const { challenge } = pkce();
      const proof = await parProof(key);
      assert.equal((await push(spa, pushedForm(spa.id, challenge), proof)).status, 201);
      await assertOAuthError(await push(spa, pushedForm(spa.id, challenge), proof), { error: 'invalid_dpop_proof' });
    });

    it('dpop_jkt and a proof of the same key are accepted; of different keys the request is refused (RFC 9449 §10.1)', async () => {
      const key1 = await dpopKey();
      const key2 = await dpopKey();
      const { challenge } = pkce();
      await assertOAuthError(
        await push(spa, pushedForm(spa.id, challenge, { dpop_jkt: key2.jkt }), await parProof(key1)),
        {
          error: 'invalid_request',
          description: 'dpop_jkt does not name the key of the DPoP proof sent with the pushed authorization request',
        },
      );
      const code = await pushedCode(spa, await parProof(key1), { dpop_jkt: key1.jkt });
      await assertOAuthError(await redeem(spa, code, key2), { error: 'invalid_grant' });
      assert.equal((await redeem(spa, code, key1)).status, 200);
    });

    it('a pushed request without a proof stays unbound, and dpop_jkt alone still binds it (RFC 9449 §10)', async () => {
      const plain = await pushedCode(spa, undefined);
      const unbound = (await (await redeem(spa, plain)).json()) as { token_type: string };
      assert.equal(unbound.token_type, 'Bearer');
      const key = await dpopKey();
      const bound = await pushedCode(spa, undefined, { dpop_jkt: key.jkt });
      await assertOAuthError(await redeem(spa, bound, await dpopKey()), { error: 'invalid_grant' });
      assert.equal((await redeem(spa, bound, key)).status, 200);
    });
  });

describe('DPoP nonces required at the pushed authorization request endpoint (RFC 9449 §8, §10.1)', () => {
  let server: TestServer;
  let spa: TestClient;
  before(async () => {
    server = await startTestServer({ dpopNonces: true });
    spa = await server.addClient({ id: 'spa', public: true, redirectUris: [CALLBACK], scope: ['contacts:read'] });
  });
  after(() => server.close());

  it('a proof without the nonce is refused with use_dpop_nonce and a DPoP-Nonce header; the retry with it is pushed', async () => {
    const key = await dpopKey();
    const form = pushedForm(spa.id, pkce().challenge);
    const proof = (nonce?: string) =>
      key.proof({ htm: 'POST', htu: PAR_URL, iat: server.clock.now(), ...(nonce === undefined ? {} : { nonce }) });
    const first = await server.post('/par', form, { as: spa, headers: { dpop: await proof() } });
    const nonce = first.headers.get('dpop-nonce') ?? assert.fail('a DPoP-Nonce header');
    await assertOAuthError(first, { error: 'use_dpop_nonce' });
    const retry = await server.post('/par', form, { as: spa, headers: { dpop: await proof(nonce) } });
    assert.equal(retry.status, 201, await retry.clone().text());
    assert.equal(retry.headers.get('dpop-nonce'), nonce);
  });
});
