import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { addTestUser, authorizationQuery, CALLBACK, PageBrowser, PASSWORD, pkce } from './_authorize.js';
import { startTestServer, type TestServer } from './_server.js';

/** Five failed sign-ins (for five usernames) from one client address, as the proxy reports it. */
async function failFiveTimesFrom(server: TestServer, query: string, address: string): Promise<void> {
  for (const name of ['u1', 'u2', 'u3', 'u4', 'u5']) {
    const browser = new PageBrowser(server);
    browser.extraHeaders = { 'x-forwarded-for': address };
    assert.equal((await browser.login(await browser.authorize(query), name, 'wrong password')).status, 401);
  }
}

async function signInFrom(server: TestServer, query: string, address: string): Promise<number> {
  const browser = new PageBrowser(server);
  browser.extraHeaders = { 'x-forwarded-for': address };
  return (await browser.login(await browser.authorize(query), 'alice', PASSWORD)).status;
}

describe('the client address behind a proxy (TRUST_PROXY)', () => {
  const servers: TestServer[] = [];
  const query = authorizationQuery('app', pkce().challenge);
  after(() => Promise.all(servers.map((s) => s.close())));

  async function start(trustProxy?: string): Promise<TestServer> {
    const server = await startTestServer({
      trustProxy,
      rateLimits: { login_failure_address: { limit: 5, periodMs: 3_600_000 } },
    });
    servers.push(server);
    await server.addClient({ id: 'app', name: 'App', public: true, redirectUris: [CALLBACK] });
    await addTestUser(server, 'alice');
    return server;
  }

  it('with the proxy trusted, the sign-in limits count per client address from X-Forwarded-For', async () => {
    const server = await start('127.0.0.1');
    await failFiveTimesFrom(server, query, '203.0.113.1');
    assert.equal(await signInFrom(server, query, '203.0.113.1'), 429);
    assert.equal(
      await signInFrom(server, query, '203.0.113.2'),
      303,
      'another client behind the same proxy is not slowed down',
    );
  });

  it('without it, X-Forwarded-For is ignored: a client cannot escape the limits by inventing addresses', async () => {
    const server = await start();
    await failFiveTimesFrom(server, query, '203.0.113.1');
    assert.equal(await signInFrom(server, query, '203.0.113.2'), 429);
  });
});
