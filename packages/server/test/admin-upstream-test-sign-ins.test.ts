/**
 * An operator's test sign-in at an upstream (docs/federation.md, "Testing an upstream"): a real
 * authorization code flow against the upstream stub whose callback signs nobody in, links nothing
 * and creates nobody; the result is read once, by the operator who started it. On both dialects;
 * every admin API answer is checked against the served document (_api.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { putProvider } from '../src/federation/providers.js';
import { addUser } from '../src/users/users.js';
import { adminToken, api, assertProblem, type Api } from './_api.js';
import { PASSWORD } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestServer } from './_server.js';
import { startUpstreamStub, type StubUser, type UpstreamStub } from './_upstream-stub.js';

const ADMIN = '/admin/v1';
const ANN: StubUser = {
  sub: 'upstream-ann',
  claims: { email: 'ann@corp.example', email_verified: true, name: 'Ann Upstream', amr: ['pwd'] },
};
const CAROL: StubUser = {
  sub: 'upstream-carol',
  claims: { email: 'carol@corp.example', email_verified: true, name: 'Carol' },
};

for (const dialect of DIALECTS)
  describe(`admin API: test sign-ins at an upstream [${dialect}]`, () => {
    let server: TestServer;
    let upstream: UpstreamStub;
    let ops: Api;
    let other: Api;

    before(async () => {
      server = await startTestServer({ dialect });
      upstream = await startUpstreamStub();
      const now = server.clock.now();
      await putProvider(
        server.context.store,
        { id: 'corp', issuer: upstream.issuer, client_id: upstream.clientId, client_secret: upstream.clientSecret },
        now,
        undefined,
      );
      // Nothing listens on port 9 of loopback: its discovery fails at once.
      await putProvider(
        server.context.store,
        { id: 'down', issuer: 'http://127.0.0.1:9', client_id: 'x', client_secret: 'y' },
        now,
        undefined,
      );
      await addUser(server.context.store, 'carol', PASSWORD, now, { email: 'carol@corp.example' });
      ops = api(server, await adminToken(server, 'ops'));
      other = api(server, await adminToken(server, 'ops-2'));
    });
    after(async () => {
      await server.close();
      await upstream.close();
    });

    /** Starts a test sign-in of `ops` at corp: its id and the upstream authorization URL. */
    async function start(): Promise<{ id: string; url: URL }> {
      const started = await ops.post(`${ADMIN}/upstreams/corp/test-sign-ins`);
      assert.equal(started.status, 201, started.text);
      assert.equal(started.body.status, 'pending');
      return { id: started.body.id as string, url: new URL(started.body.authorization_url as string) };
    }

    /** The browser back at the callback with `query`, without any cookie: the page answered. */
    async function callback(query: string): Promise<{ status: number; html: string; cookie: string | null }> {
      const response = await fetch(`${server.url}/federation/callback?${query}`, { redirect: 'manual' });
      return { status: response.status, html: await response.text(), cookie: response.headers.get('set-cookie') };
    }

    it('runs a real sign-in (PKCE S256, state, nonce) and shows the claims and what a sign-in would do, creating nobody', async () => {
      const usersBefore = (await server.context.store.listUsers()).length;
      const { id, url } = await start();
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
      assert.ok(
        url.searchParams.get('code_challenge') && url.searchParams.get('nonce') && url.searchParams.get('state'),
      );
      const pending = await ops.get(`${ADMIN}/upstreams/corp/test-sign-ins/${id}`);
      assert.equal(pending.status, 200);
      assert.equal(pending.body.status, 'pending', 'pending until the callback, and not used up by the read');
      const page = await callback(upstream.approve(url, ANN));
      assert.equal(page.status, 200, page.html.slice(0, 400));
      assert.match(page.html, /\/console\/upstreams\/corp/);
      assert.equal(page.cookie, null, 'no browser session is made');
      const read = await ops.get(`${ADMIN}/upstreams/corp/test-sign-ins/${id}`);
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.status, 'succeeded');
      assert.equal(read.body.issuer, upstream.issuer);
      assert.equal(read.body.subject, 'upstream-ann');
      assert.equal(read.body.claims.email, 'ann@corp.example');
      assert.deepEqual(read.body.amr, ['pwd']);
      assert.equal(read.body.mapped_claims.name, 'Ann Upstream');
      assert.deepEqual(read.body.local_account, { action: 'provision', username: 'ann@corp.example' });
      assert.equal((await server.context.store.listUsers()).length, usersBefore, 'nobody created');
      assert.equal(await server.context.store.findFederatedIdentity(upstream.issuer, 'upstream-ann'), undefined);
      assertProblem(await ops.get(`${ADMIN}/upstreams/corp/test-sign-ins/${id}`), 404, 'not-found');
      const audited = await ops.get(`${ADMIN}/audit-events?event=upstream_test_sign_in&actor=ops`);
      assert.ok(
        audited.body.items.some((e: { actor: string; reason: string }) => e.actor === 'ops' && e.reason === 'corp'),
      );
    });

    it('says which existing account an e-mail would lead to: its owner proves it before it is linked', async () => {
      const { id, url } = await start();
      assert.equal((await callback(upstream.approve(url, CAROL))).status, 200);
      const read = await ops.get(`${ADMIN}/upstreams/corp/test-sign-ins/${id}`);
      assert.deepEqual(read.body.local_account, { action: 'link_after_proof', username: 'carol' });
      assert.equal(await server.context.store.findFederatedIdentity(upstream.issuer, 'upstream-carol'), undefined);
    });

    it('another operator cannot read the result, and its attempt does not use it up', async () => {
      const { id, url } = await start();
      assertProblem(await other.get(`${ADMIN}/upstreams/corp/test-sign-ins/${id}`), 404, 'not-found');
      assert.equal((await callback(upstream.approve(url, ANN))).status, 200);
      assertProblem(await other.get(`${ADMIN}/upstreams/corp/test-sign-ins/${id}`), 404, 'not-found');
      assertProblem(await ops.get(`${ADMIN}/upstreams/other/test-sign-ins/${id}`), 404, 'not-found');
      assert.equal((await ops.get(`${ADMIN}/upstreams/corp/test-sign-ins/${id}`)).body.status, 'succeeded');
    });

    it('refuses a replayed callback (the state is single use, RFC 6749 §10.12)', async () => {
      const { url } = await start();
      const query = upstream.approve(url, ANN);
      assert.equal((await callback(query)).status, 200);
      const again = await callback(query);
      assert.equal(again.status, 400);
      assert.match(again.html, /federation-state-invalid/);
    });

    it('an ID token with another nonce is a failed result, never a 5xx (OIDC Core §3.1.3.7)', async () => {
      const { id, url } = await start();
      upstream.mode = 'wrong_nonce';
      try {
        assert.equal((await callback(upstream.approve(url, ANN))).status, 200);
      } finally {
        upstream.mode = 'good';
      }
      const read = await ops.get(`${ADMIN}/upstreams/corp/test-sign-ins/${id}`);
      assert.equal(read.body.status, 'failed');
      assert.equal(read.body.problem.code, 'upstream_token_invalid');
      assert.equal(read.body.problem.status, 400);
    });

    it('an upstream error at the callback is a failed result (RFC 6749 §4.1.2.1)', async () => {
      const { id, url } = await start();
      assert.equal((await callback(upstream.deny(url, 'access_denied'))).status, 200);
      const read = await ops.get(`${ADMIN}/upstreams/corp/test-sign-ins/${id}`);
      assert.equal(read.body.status, 'failed');
      assert.equal(read.body.problem.code, 'upstream_access_denied');
    });

    it('an upstream that does not answer is a failed result at once, without an authorization URL', async () => {
      const started = await ops.post(`${ADMIN}/upstreams/down/test-sign-ins`);
      assert.equal(started.status, 201, started.text);
      assert.equal(started.body.status, 'failed');
      assert.equal(started.body.problem.code, 'upstream_unavailable');
      assert.equal(started.body.authorization_url, undefined);
      assertProblem(await ops.post(`${ADMIN}/upstreams/none/test-sign-ins`), 404, 'not-found');
    });
  });
