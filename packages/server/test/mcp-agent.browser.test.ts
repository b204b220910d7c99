/**
 * An agent client nobody here wrote: the official MCP TypeScript SDK's OAuth client
 * (`@modelcontextprotocol/sdk/client/auth.js`), against the REST API /v2 as the protected resource.
 *
 * The SDK's own code path is driven end to end: `withOAuth` (its fetch middleware, the same 401
 * handling its HTTP transports do) answers the API's 401 by calling `auth()`, which reads
 * `resource_metadata` from the challenge (RFC 9728 §5.1), fetches the protected resource metadata
 * and the authorization server's RFC 8414 metadata, registers a public client (RFC 7591, under
 * CLIENT_REGISTRATION=open), and hands the authorization URL (PKCE S256, RFC 8707 `resource`) to the
 * provider, whose `redirectToAuthorization` signs in and consents in Chromium. `auth()` with the code
 * then exchanges it; the retried call succeeds; once the access token has expired, the next 401 makes
 * the SDK refresh, and the call succeeds again. The REST API is the resource rather than an MCP
 * server: the OAuth client code is the same, and no MCP server of the SDK would add to what is tested.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { withOAuth } from '@modelcontextprotocol/sdk/client/middleware.js';
import type { Browser } from 'playwright-core';
import { addTestUser } from './_authorize.js';
import { browserAvailability, launchChromium, startCallbackServer, type CallbackServer } from './_browser.js';
import { AgentProvider } from './_mcp-agent.js';
import { startTestServer, type TestServer } from './_server.js';

const { skip, unavailable } = browserAvailability();

describe('an MCP agent (the official MCP TypeScript SDK) against Gatehouse', { skip, timeout: 120_000 }, () => {
  let server: TestServer;
  let callback: CallbackServer;
  let browser: Browser;

  before(async () => {
    if (unavailable) return;
    server = await startTestServer({ clientRegistration: 'open', reachableIssuer: true });
    await addTestUser(server, 'alice');
    callback = await startCallbackServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await callback?.close();
    await server?.close();
  });

  it('discovers from the 401, registers, is authorized in the browser, exchanges the code, calls the API and refreshes', async () => {
    if (unavailable) throw unavailable;
    const page = await (await browser.newContext()).newPage();
    const provider = new AgentProvider(callback, page, {
      clientName: 'Agent (MCP SDK)',
      consentNotice: '.alert',
      screenshot: 'consent-self-registered.png',
    });
    const resource = `${server.url}/v2`;
    const agentFetch = withOAuth(provider, resource)(fetch);

    // No token: the SDK follows the 401 to the metadata, registers, and sends the user to authorize.
    await assert.rejects(agentFetch(`${resource}/contacts`), UnauthorizedError);
    const clientId = provider.information?.client_id as string;
    const registered = await server.context.store.findClient(clientId);
    assert.equal(registered?.secretDigest, null, 'registered as a public client');
    assert.deepEqual(registered?.redirectUris, [callback.uri]);
    const [authorization] = provider.authorizationUrls;
    assert.equal(authorization?.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorization?.searchParams.get('resource'), resource, 'RFC 8707, from the resource metadata');
    assert.match(provider.consentNotices[0] ?? '', /registered itself/, 'RFC 7591 §5: the user is told');
    const code = callback.received.at(-1)?.get('code');
    assert.ok(code, 'the loopback listener received a code');

    // The code, exchanged by the SDK; the call then succeeds with its token.
    assert.equal(await auth(provider, { serverUrl: resource, authorizationCode: code }), 'AUTHORIZED');
    const first = provider.stored;
    assert.ok(first?.access_token && first.refresh_token);
    const payload = first.access_token.split('.')[1] as string;
    const { aud } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { aud: string };
    assert.equal(aud, resource, 'the access token is restricted to the resource the SDK named (RFC 8707)');
    const listed = await agentFetch(`${resource}/contacts`);
    assert.equal(listed.status, 200, await listed.clone().text());

    // The access token expires: the next 401 makes the SDK refresh (rotating the refresh token).
    server.clock.advance(301);
    const again = await agentFetch(`${resource}/contacts`);
    assert.equal(again.status, 200, await again.clone().text());
    assert.notEqual(provider.stored?.access_token, first.access_token);
    assert.notEqual(provider.stored?.refresh_token, first.refresh_token);
    assert.equal(provider.authorizationUrls.length, 1, 'no second trip to the browser');
  });
});
