import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertOkJson } from './_oauth-assertions.js';
import { DIALECTS } from './_dialects.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';

/**
 * The single-successor replay window (docs/architecture.md, "Concurrent refresh"): inside it, a
 * replay of the just-rotated token by its client is answered 200 with the same successor; everything
 * outside it is the error contract as before (RFC 9700 §4.14.2 reuse detection).
 */
for (const dialect of DIALECTS)
  describe(`the replay window [${dialect}]`, () => {
    let server: TestServer;
    let tabs: TestClient;
    let twice: TestClient;
    let other: TestClient;

    before(async () => {
      server = await startTestServer({ dialect });
      tabs = await server.addClient({ id: 'tabs', replayWindow: 30 });
      twice = await server.addClient({ id: 'twice', replayWindow: 30, rotationLimit: 2 });
      other = await server.addClient({ id: 'other', replayWindow: 30 });
    });
    after(() => server.close());

    async function assertRefused(client: TestClient, token: string, description: string): Promise<void> {
      const answer = await refresh(server, client, token);
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error, 'invalid_grant');
      assert.equal(answer.body.error_description, description);
    }

    async function familyIsAlive(client: TestClient, token: string): Promise<boolean> {
      return (await refresh(server, client, token)).status === 200;
    }

    it('two tabs refreshing with one token at once both get 200 and the same, byte-identical refresh token', async () => {
      const { refresh_token: token } = await server.issueGrant(tabs);
      const [a, b] = await Promise.all([refresh(server, tabs, token), refresh(server, tabs, token)]);
      assert.deepEqual([a.status, b.status], [200, 200]);
      assert.equal(a.body.refresh_token, b.body.refresh_token);
      assert.notEqual(a.body.access_token, b.body.access_token, 'each answer has an access token of its own');
      assert.equal(a.body.scope, b.body.scope);
      assert.ok(await familyIsAlive(tabs, a.body.refresh_token as string), 'the family stays alive');
    });

    it('a replay inside the window consumes nothing, is audited as refresh_token_replay_served and counted in /metrics', async () => {
      const { refresh_token: token } = await server.issueGrant(tabs);
      const rotated = await refresh(server, tabs, token);
      const before = await server.context.store.listAuditEvents({ event: 'refresh_token_replay_served', limit: 1000 });
      for (let i = 0; i < 3; i++) {
        const again = await refresh(server, tabs, token);
        assert.equal(again.status, 200);
        assert.equal(again.body.refresh_token, rotated.body.refresh_token);
      }
      const served = await server.context.store.listAuditEvents({ event: 'refresh_token_replay_served', limit: 1000 });
      assert.equal(served.length - before.length, 3);
      assert.equal(served.at(-1)?.clientId, 'tabs');
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      assert.match(metrics, /gatehouse_audit_events_total\{event="refresh_token_replay_served"\} [1-9]/);
      // The successor is still unused: it rotates as usual.
      assert.equal((await refresh(server, tabs, rotated.body.refresh_token as string)).status, 200);
    });

    it('RFC 9700 §4.14.2: after the successor was exchanged, the old token is a reuse: invalid_grant, family revoked, identical on retry', async () => {
      const { refresh_token: token } = await server.issueGrant(tabs);
      const first = await refresh(server, tabs, token);
      const second = await refresh(server, tabs, first.body.refresh_token as string);
      assert.equal(second.status, 200);
      await assertRefused(tabs, token, 'refresh token is past its rotation limit');
      await assertRefused(tabs, token, 'refresh token is past its rotation limit');
      await assertRefused(tabs, second.body.refresh_token as string, 'refresh token has been revoked');
    });

    it('outside the window the old token is a reuse: invalid_grant, family revoked', async () => {
      const { refresh_token: token } = await server.issueGrant(tabs);
      const rotated = await refresh(server, tabs, token);
      server.clock.advance(30);
      await assertRefused(tabs, token, 'refresh token is past its rotation limit');
      await assertRefused(tabs, rotated.body.refresh_token as string, 'refresh token has been revoked');
    });

    it('a token two generations old is a reuse even inside the window', async () => {
      const { refresh_token: t0 } = await server.issueGrant(tabs);
      const t1 = (await refresh(server, tabs, t0)).body.refresh_token as string;
      const t2 = (await refresh(server, tabs, t1)).body.refresh_token as string;
      await assertRefused(tabs, t0, 'refresh token is past its rotation limit');
      await assertRefused(tabs, t2, 'refresh token has been revoked');
    });

    it('another client presenting the token is refused as before, without serving the successor', async () => {
      const { refresh_token: token } = await server.issueGrant(tabs);
      const rotated = await refresh(server, tabs, token);
      await assertRefused(other, token, 'refresh token was issued to another client');
      const again = await refresh(server, tabs, token);
      assert.equal(again.body.refresh_token, rotated.body.refresh_token);
    });

    it('rotation_limit 2: inside the window the successor is re-sent instead of a second rotation; after it, the second use rotates', async () => {
      const { refresh_token: token } = await server.issueGrant(twice);
      const rotated = await refresh(server, twice, token);
      const replayed = await refresh(server, twice, token);
      assert.equal(replayed.body.refresh_token, rotated.body.refresh_token);
      server.clock.advance(31);
      const lost = await refresh(server, twice, token);
      assert.equal(lost.status, 200, 'a lost response is still tolerated by the second use');
      assert.notEqual(lost.body.refresh_token, rotated.body.refresh_token);
      await assertRefused(twice, rotated.body.refresh_token as string, 'refresh token has been revoked');
    });

    it('RFC 7662: the rotated token introspects as inactive inside the window; its successor as active', async () => {
      const introspector = await server.addClient({ id: 'tabs-introspector', resourceServer: true });
      const { refresh_token: token } = await server.issueGrant(tabs);
      const rotated = await refresh(server, tabs, token);
      const asked = async (t: string) =>
        assertOkJson(
          await server.post('/introspect', { token: t, token_type_hint: 'refresh_token' }, { as: introspector }),
        );
      assert.deepEqual(await asked(token), { active: false });
      assert.equal((await asked(rotated.body.refresh_token as string)).active, true);
    });

    it('a scope wider than the grant is refused inside the window too, and consumes nothing', async () => {
      const { refresh_token: token } = await server.issueGrant(tabs);
      const rotated = await refresh(server, tabs, token);
      const wider = await refresh(server, tabs, token, { scope: 'contacts:read contacts:write' });
      assert.equal(wider.status, 400);
      assert.equal(wider.body.error, 'invalid_scope');
      assert.equal((await refresh(server, tabs, token)).body.refresh_token, rotated.body.refresh_token);
    });

    it('with rotation off the window changes nothing: the same token keeps working', async () => {
      const fixed = await server.addClient({ id: 'tabs-fixed', replayWindow: 30, rotation: false });
      const { refresh_token: token } = await server.issueGrant(fixed);
      for (let i = 0; i < 3; i++) {
        const answer = await refresh(server, fixed, token);
        assert.equal(answer.status, 200);
        assert.equal(answer.body.refresh_token, undefined);
      }
    });
  });
