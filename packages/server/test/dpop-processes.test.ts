import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../src/cli/run.js';
import { issueGrant } from '../src/oauth/tokens/grant-issuance.js';
import { digestOf } from '../src/primitives/secrets.js';
import { openStore } from '../src/store/open.js';
import { DIALECTS, freshDatabase } from './_dialects.js';
import { dpopKey } from './_dpop.js';
import { spawnServer, type ServerProcess } from './_processes.js';
import { ensureTestUser, postForm, SHIPPED_OPENAPI, type TestClient } from './_server.js';

const ISSUER = 'http://gatehouse.test';
const FORM = { grant_type: 'client_credentials', scope: 'contacts:read' };

for (const dialect of DIALECTS)
  describe(`DPoP across two gatehouse serve processes sharing one database [${dialect}]`, () => {
    let database: { url: string; drop(): Promise<void> };
    let a: ServerProcess;
    let b: ServerProcess;
    let client: TestClient;

    before(async () => {
      database = await freshDatabase(dialect);
      const env = { DATABASE_URL: database.url, ISSUER, OPENAPI_PATH: SHIPPED_OPENAPI };
      let out = '';
      const cli = (...argv: string[]) => runCli(argv, env, { out: (t) => (out += t), err: () => {} });
      assert.equal(await cli('migrate'), 0);
      out = '';
      assert.equal(await cli('clients', 'add', '--id', 'dpop', '--name', 'DPoP', '--scope', 'contacts:read'), 0);
      client = { id: 'dpop', secret: (JSON.parse(out) as { client_secret: string }).client_secret };
      [a, b] = await Promise.all([
        spawnServer({ ...env, AUTO_MIGRATE: 'false', DPOP_NONCES: 'on' }),
        spawnServer({ ...env, AUTO_MIGRATE: 'false', DPOP_NONCES: 'on' }),
      ]);
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await database.drop();
    });

    const now = () => Math.floor(Date.now() / 1000);
    const token = (server: ServerProcess, proof: string) =>
      postForm(`${server.url}/token`, FORM, { as: client, headers: { dpop: proof } });
    const refresh = (server: ServerProcess, refreshToken: string, proof: string) =>
      postForm(
        `${server.url}/token`,
        { grant_type: 'refresh_token', refresh_token: refreshToken },
        { as: client, headers: { dpop: proof } },
      );

    it("a nonce one process gives, the other honours (RFC 9449 §8: the key is the store's, not the process's)", async () => {
      const key = await dpopKey();
      const refused = await token(a, await key.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: now() }));
      assert.equal(refused.status, 400);
      assert.equal(((await refused.json()) as { error: string }).error, 'use_dpop_nonce');
      const nonce = refused.headers.get('dpop-nonce') ?? assert.fail('a DPoP-Nonce header');
      const accepted = await token(b, await key.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: now(), nonce }));
      assert.equal(accepted.status, 200, await accepted.clone().text());
      assert.equal(((await accepted.json()) as { token_type: string }).token_type, 'DPoP');
      // Both give the same current nonce.
      assert.equal(accepted.headers.get('dpop-nonce'), nonce);
    });

    it('a proof accepted by one process is refused as a replay by the other (RFC 9449 §11.1, jti in the store)', async () => {
      const key = await dpopKey();
      const first = await token(a, await key.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: now() }));
      const nonce = first.headers.get('dpop-nonce') ?? assert.fail('a DPoP-Nonce header');
      const proof = await key.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: now(), nonce });
      assert.equal((await token(a, proof)).status, 200);
      const replay = await token(b, proof);
      assert.equal(replay.status, 400);
      assert.equal(((await replay.json()) as { error: string }).error, 'invalid_dpop_proof');
      // And concurrently: of 10 copies of one proof sent to both processes, exactly one is accepted.
      const fresh = await key.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: now(), nonce });
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => token(i % 2 ? a : b, fresh)));
      assert.equal(answers.filter((r) => r.status === 200).length, 1);
      assert.ok(answers.every((r) => r.status === 200 || r.status === 400));
    });

    it("a proof used for a refresh on one process is refused on the other, that refresh rotating nothing (RFC 9449 §11.1: the jti noted in the rotation's transaction)", async () => {
      const store = await openStore(database.url, { migrations: 'check', create: false });
      let first: string;
      let second: string;
      try {
        const record = (await store.findClient(client.id)) ?? assert.fail('the client');
        const { subject } = await ensureTestUser(store, 'alice', now());
        const issue = () => store.transaction((tx) => issueGrant(tx, record, subject, ['contacts:read'], now()));
        [first, second] = [(await issue()).refreshToken ?? '', (await issue()).refreshToken ?? ''];
      } finally {
        await store.close();
      }
      const key = await dpopKey();
      const nonceOf = async (server: ServerProcess) =>
        (
          await refresh(server, first, await key.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: now() }))
        ).headers.get('dpop-nonce') ?? assert.fail('a DPoP-Nonce header');
      const nonce = await nonceOf(a);
      const proof = await key.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: now(), nonce });
      const used = await refresh(a, first, proof);
      assert.equal(used.status, 200, await used.clone().text());
      const replay = await refresh(b, second, proof);
      assert.equal(replay.status, 400);
      assert.equal(((await replay.json()) as { error: string }).error, 'invalid_dpop_proof');
      const check = await openStore(database.url, { migrations: 'check', create: false });
      try {
        assert.equal((await check.findRefreshToken(digestOf(second)))?.token.useCount, 0, 'not rotated');
      } finally {
        await check.close();
      }
      const fresh = await refresh(
        b,
        second,
        await key.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: now(), nonce }),
      );
      assert.equal(fresh.status, 200, await fresh.clone().text());
    });
  });
