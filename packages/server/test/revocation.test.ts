import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertOAuthError, ISSUER } from './_oauth-assertions.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';
import { DIALECTS } from './_dialects.js';

const REVOKED = {
  error: 'invalid_grant',
  error_description: 'refresh token has been revoked',
  error_uri: `${ISSUER}/problems/invalid-grant`,
};

for (const dialect of DIALECTS)
  describe(`POST /revoke (RFC 7009) [${dialect}]`, () => {
    let server: TestServer;
    let app: TestClient;
    let other: TestClient;

    before(async () => {
      server = await startTestServer({ dialect });
      app = await server.addClient({ id: 'app' });
      other = await server.addClient({ id: 'other' });
    });
    after(() => server.close());

    const revoke = (token: string, as: TestClient = app): Promise<Response> =>
      server.post('/revoke', { token }, { as });

    async function assertRevokedOk(response: Response): Promise<void> {
      assert.equal(response.status, 200);
      assert.equal(await response.text(), '');
      assert.equal(response.headers.get('cache-control'), 'no-store');
    }

    it('revoking a refresh token answers 200, and the token then gets invalid_grant "refresh token has been revoked", identically on a retry', async () => {
      const { refresh_token } = await server.issueGrant(app);
      await assertRevokedOk(await revoke(refresh_token));
      const first = await refresh(server, app, refresh_token);
      const retry = await refresh(server, app, refresh_token);
      assert.equal(first.status, 400);
      assert.deepEqual(first.body, REVOKED);
      assert.equal(retry.status, 400);
      assert.deepEqual(retry.body, first.body);
      server.clock.advance(30 * 86_400);
      assert.deepEqual((await refresh(server, app, refresh_token)).body, REVOKED);
    });

    it('revoking a token twice answers 200 both times', async () => {
      const { refresh_token } = await server.issueGrant(app);
      await assertRevokedOk(await revoke(refresh_token));
      await assertRevokedOk(await revoke(refresh_token));
    });

    it('revoking a refresh token revokes its whole grant: a token rotated from it is refused too', async () => {
      const { refresh_token } = await server.issueGrant(app);
      const rotated = await refresh(server, app, refresh_token);
      assert.equal(rotated.status, 200);
      await assertRevokedOk(await revoke(rotated.body.refresh_token as string));
      assert.deepEqual((await refresh(server, app, rotated.body.refresh_token as string)).body, REVOKED);
    });

    it('revoking an unknown token answers 200 (RFC 7009 §2.2)', async () => {
      await assertRevokedOk(await revoke('no-such-token'));
      await assertRevokedOk(await revoke('not.a.jwt'));
    });

    it('revoking an access token answers 400 unsupported_token_type', async () => {
      const { access_token } = await server.issueGrant(app);
      await assertOAuthError(await revoke(access_token), {
        error: 'unsupported_token_type',
        description: 'access tokens cannot be revoked; revoke the refresh token',
      });
    });

    it("revoking another client's token is refused with invalid_grant, and the token still works for its owner", async () => {
      const { refresh_token } = await server.issueGrant(app);
      await assertOAuthError(await revoke(refresh_token, other), {
        error: 'invalid_grant',
        description: 'refresh token was issued to another client',
      });
      const { status } = await refresh(server, app, refresh_token);
      assert.equal(status, 200);
    });

    it('a public client revokes its own refresh token authenticating with none', async () => {
      const spa = await server.addClient({ id: 'spa', public: true });
      const { refresh_token } = await server.issueGrant(spa);
      await assertRevokedOk(await revoke(refresh_token, spa));
      assert.deepEqual((await refresh(server, spa, refresh_token)).body, REVOKED);
    });

    it('an unauthenticated caller gets 401 invalid_client and the token is not revoked', async () => {
      const { refresh_token } = await server.issueGrant(app);
      await assertOAuthError(await server.post('/revoke', { token: refresh_token }), {
        error: 'invalid_client',
        description: 'client authentication failed',
      });
      assert.equal((await refresh(server, app, refresh_token)).status, 200);
    });

    it('a request without token gets 400 invalid_request "missing required parameter \'token\'"', async () => {
      await assertOAuthError(await server.post('/revoke', {}, { as: app }), {
        error: 'invalid_request',
        description: "missing required parameter 'token'",
      });
    });
  });
