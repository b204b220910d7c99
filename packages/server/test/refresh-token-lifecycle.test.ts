import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';
import { DIALECTS } from './_dialects.js';

const DAY = 86_400;

for (const dialect of DIALECTS)
  describe(`refresh-token lifecycle (the spec's state table) [${dialect}]`, () => {
    let server: TestServer;
    let client: TestClient;

    before(async () => {
      server = await startTestServer({ dialect });
      client = await server.addClient({ id: 'app', refreshTokenTtl: 14 * DAY, refreshTokenAbsoluteTtl: 90 * DAY });
    });
    after(() => server.close());

    /** Asserts the exact RFC 6749 §5.2 refusal, with the no-cache headers. */
    async function assertRefused(token: string, description: string, as: TestClient = client): Promise<void> {
      const { status, body, headers } = await refresh(server, as, token);
      assert.equal(status, 400);
      assert.deepEqual(body, {
        error: 'invalid_grant',
        error_description: description,
        error_uri: 'http://gatehouse.test/problems/invalid-grant',
      });
      assert.equal(headers.get('cache-control'), 'no-store');
      assert.equal(headers.get('pragma'), 'no-cache');
    }

    it('a successful refresh with rotation returns a new access token and a new refresh token, and the old token is invalid', async () => {
      const first = await server.issueGrant(client);
      const rotated = await refresh(server, client, first.refresh_token);
      assert.equal(rotated.status, 200);
      assert.equal(rotated.headers.get('cache-control'), 'no-store');
      assert.equal(typeof rotated.body.access_token, 'string');
      assert.notEqual(rotated.body.access_token, first.access_token);
      assert.equal(typeof rotated.body.refresh_token, 'string');
      assert.notEqual(rotated.body.refresh_token, first.refresh_token);
      assert.equal(rotated.body.token_type, 'Bearer');
      assert.equal(rotated.body.scope, 'contacts:read');
      // The new head is the family's live token; the old one is used up.
      assert.equal((await refresh(server, client, rotated.body.refresh_token as string)).status, 200);
      await assertRefused(first.refresh_token, 'refresh token is past its rotation limit');
    });

    it('an expired refresh token is refused with invalid_grant, identically on retry now and after time passes', async () => {
      const { refresh_token } = await server.issueGrant(client);
      server.clock.advance(14 * DAY);
      await assertRefused(refresh_token, 'refresh token has expired');
      await assertRefused(refresh_token, 'refresh token has expired');
      server.clock.advance(365 * DAY);
      await assertRefused(refresh_token, 'refresh token has expired');
    });

    it('a family past its absolute lifetime is expired even while each token is used within its idle lifetime', async () => {
      let { refresh_token: token } = await server.issueGrant(client);
      for (let day = 0; day < 90; day += 10) {
        server.clock.advance(10 * DAY);
        const r = await refresh(server, client, token);
        if (day + 10 >= 90) {
          assert.equal(r.status, 400);
          assert.equal(r.body.error_description, 'refresh token has expired');
          return;
        }
        assert.equal(r.status, 200, `refresh on day ${day + 10}`);
        token = r.body.refresh_token as string;
      }
      assert.fail('the family outlived its absolute lifetime');
    });

    it('a revoked refresh token is refused with invalid_grant, again on retry and after time passes', async () => {
      const { refresh_token } = await server.issueGrant(client);
      assert.equal((await server.post('/revoke', { token: refresh_token }, { as: client })).status, 200);
      await assertRefused(refresh_token, 'refresh token has been revoked');
      await assertRefused(refresh_token, 'refresh token has been revoked');
      // Revoked wins over expired: the answer does not change when its time runs out.
      server.clock.advance(400 * DAY);
      await assertRefused(refresh_token, 'refresh token has been revoked');
    });

    it('a grant revoked by the operator refuses its refresh token as revoked', async () => {
      const { refresh_token, grant_id } = await server.issueGrant(client);
      await server.context.store.revokeGrant(grant_id, 'revoked_by_admin', server.clock.now());
      await assertRefused(refresh_token, 'refresh token has been revoked');
    });

    it('a refresh token past its rotation limit is refused, and keeps saying so after its family was revoked and time passed', async () => {
      const { refresh_token } = await server.issueGrant(client);
      assert.equal((await refresh(server, client, refresh_token)).status, 200);
      await assertRefused(refresh_token, 'refresh token is past its rotation limit');
      server.clock.advance(400 * DAY);
      await assertRefused(refresh_token, 'refresh token is past its rotation limit');
    });

    it('replaying a rotated token revokes the family: the newest token then fails as revoked and introspection of both is inactive', async () => {
      const { refresh_token: old } = await server.issueGrant(client);
      const rotated = await refresh(server, client, old);
      const newest = rotated.body.refresh_token as string;
      await assertRefused(old, 'refresh token is past its rotation limit');
      await assertRefused(newest, 'refresh token has been revoked');
      for (const token of [old, newest]) {
        const response = await server.post('/introspect', { token, token_type_hint: 'refresh_token' }, { as: client });
        assert.equal(response.status, 200);
        assert.deepEqual(await response.json(), { active: false });
      }
      // The access token issued with the newest head belongs to the revoked grant too.
      const introspected = await server.post(
        '/introspect',
        { token: rotated.body.access_token as string },
        { as: client },
      );
      assert.deepEqual(await introspected.json(), { active: false });
    });

    it('of 50 concurrent refreshes of one single-use token exactly one succeeds, the rest get invalid_grant, none a 5xx', async () => {
      const { refresh_token } = await server.issueGrant(client);
      const results = await Promise.all(Array.from({ length: 50 }, () => refresh(server, client, refresh_token)));
      const ok = results.filter((r) => r.status === 200);
      assert.equal(ok.length, 1);
      for (const r of results.filter((x) => x.status !== 200)) {
        assert.equal(r.status, 400);
        assert.equal(r.body.error, 'invalid_grant');
        assert.equal(r.body.error_description, 'refresh token is past its rotation limit');
      }
      // The losers were replays, so the family ends revoked (RFC 9700 §4.14.2).
      await assertRefused(ok[0]?.body.refresh_token as string, 'refresh token has been revoked');
    });

    it('a refresh token issued to one client and presented by another is refused with invalid_grant, and still works for its owner', async () => {
      const other = await server.addClient({ id: 'other-app' });
      const { refresh_token } = await server.issueGrant(client);
      await assertRefused(refresh_token, 'refresh token was issued to another client', other);
      await assertRefused(refresh_token, 'refresh token was issued to another client', other);
      assert.equal((await refresh(server, client, refresh_token)).status, 200);
    });

    it('an unknown refresh token is refused as invalid', async () => {
      await assertRefused('not-a-token-we-issued', 'refresh token is invalid');
    });

    it('a refresh may narrow the scope; asking beyond the grant is invalid_scope and the token still works', async () => {
      const { refresh_token } = await server.issueGrant(client, 'alice', ['contacts:read', 'contacts:write']);
      const wider = await refresh(server, client, refresh_token, { scope: 'contacts:read admin' });
      assert.equal(wider.status, 400);
      assert.equal(wider.body.error, 'invalid_scope');
      const narrower = await refresh(server, client, refresh_token, { scope: 'contacts:read' });
      assert.equal(narrower.status, 200);
      assert.equal(narrower.body.scope, 'contacts:read');
      // The family keeps the grant's scope.
      const next = await refresh(server, client, narrower.body.refresh_token as string);
      assert.equal(next.body.scope, 'contacts:read contacts:write');
    });
  });

for (const dialect of DIALECTS)
  describe(`refresh-token policy per client [${dialect}]`, () => {
    let server: TestServer;

    before(async () => {
      server = await startTestServer({ dialect });
    });
    after(() => server.close());

    it('with rotation_limit 2 a token may be exchanged twice, and the head it superseded is refused as revoked', async () => {
      const client = await server.addClient({ id: 'lenient', rotationLimit: 2 });
      const { refresh_token: t1 } = await server.issueGrant(client);
      const first = await refresh(server, client, t1);
      assert.equal(first.status, 200);
      // The response was "lost": the client retries with t1 and gets another head.
      const retry = await refresh(server, client, t1);
      assert.equal(retry.status, 200);
      assert.equal(
        (await refresh(server, client, t1)).body.error_description,
        'refresh token is past its rotation limit',
      );
      // Presenting the superseded head is reuse: it is refused and the family revoked.
      const superseded = await refresh(server, client, first.body.refresh_token as string);
      assert.equal(superseded.body.error_description, 'refresh token has been revoked');
      assert.equal(
        (await refresh(server, client, retry.body.refresh_token as string)).body.error_description,
        'refresh token has been revoked',
      );
    });

    it('with max_rotations 2 the family rotates twice, the second rotation issues no refresh token, and its predecessor is past the limit', async () => {
      const client = await server.addClient({ id: 'capped', maxRotations: 2 });
      const { refresh_token: t1 } = await server.issueGrant(client);
      const r1 = await refresh(server, client, t1);
      assert.equal(r1.status, 200);
      const r2 = await refresh(server, client, r1.body.refresh_token as string);
      assert.equal(r2.status, 200);
      assert.equal(typeof r2.body.access_token, 'string');
      assert.equal(r2.body.refresh_token, undefined);
      const again = await refresh(server, client, r1.body.refresh_token as string);
      assert.equal(again.body.error_description, 'refresh token is past its rotation limit');
    });

    it('without rotation the same refresh token keeps working, its idle lifetime sliding, until the absolute lifetime', async () => {
      const client = await server.addClient({
        id: 'static',
        rotation: false,
        refreshTokenTtl: 10 * DAY,
        refreshTokenAbsoluteTtl: 30 * DAY,
      });
      const { refresh_token } = await server.issueGrant(client);
      for (let i = 0; i < 2; i++) {
        server.clock.advance(9 * DAY);
        const r = await refresh(server, client, refresh_token);
        assert.equal(r.status, 200, `refresh ${i + 1}`);
        assert.equal(r.body.refresh_token, undefined);
      }
      server.clock.advance(9 * DAY);
      assert.equal((await refresh(server, client, refresh_token)).status, 200);
      server.clock.advance(9 * DAY);
      const late = await refresh(server, client, refresh_token);
      assert.equal(late.body.error_description, 'refresh token has expired');
    });
  });
