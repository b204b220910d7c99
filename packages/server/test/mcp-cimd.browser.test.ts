/**
 * An MCP agent that identifies itself with a client ID metadata document
 * (draft-ietf-oauth-client-id-metadata-document), through the official MCP TypeScript SDK's OAuth
 * client: the provider names `clientMetadataUrl`, the SDK reads `client_id_metadata_document_supported`
 * from the authorization server's metadata and sends that URL as `client_id`, with no registration
 * call (CLIENT_REGISTRATION is off: there is no /register to call). The document is served over https
 * by the test, with its own certificate authority, which the server is configured to trust; the test's
 * name for the document host resolves to 127.0.0.1, an address the operator allows. The user signs in
 * and consents in Chromium (the consent page shows the document's host); the SDK exchanges the code,
 * calls the API, and refreshes once the access token has expired.
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
import { startTlsServer, TEST_CA, TEST_HOST, type TlsServer } from './_tls.js';

const { skip, unavailable } = browserAvailability();

describe(
  'an MCP agent with a client ID metadata document (the official MCP TypeScript SDK)',
  { skip, timeout: 120_000 },
  () => {
    let server: TestServer;
    let callback: CallbackServer;
    let browser: Browser;
    let documents: TlsServer;
    let documentFetches = 0;

    before(async () => {
      if (unavailable) return;
      callback = await startCallbackServer();
      documents = await startTlsServer((request, response) => {
        documentFetches += 1;
        if (request.url !== '/agent/client.json') return void response.writeHead(404).end();
        response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' });
        response.end(
          JSON.stringify({
            client_id: `${documents.origin}/agent/client.json`,
            client_name: 'Agent (MCP SDK, metadata document)',
            redirect_uris: [callback.uri],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          }),
        );
      });
      server = await startTestServer({
        reachableIssuer: true,
        clientIdMetadata: {
          mode: 'open',
          ca: TEST_CA,
          resolve: async (hostname) => {
            if (hostname !== TEST_HOST) throw new Error(`no test address for ${hostname}`);
            return [{ address: '127.0.0.1', family: 4 }];
          },
          allowAddresses: ['127.0.0.1/32'],
        },
      });
      await addTestUser(server, 'alice');
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await documents?.close();
      await callback?.close();
      await server?.close();
    });

    it('discovers, sends its document URL as client_id without registering, is authorized in the browser, gets tokens and refreshes', async () => {
      if (unavailable) throw unavailable;
      const page = await (await browser.newContext()).newPage();
      const provider = new AgentProvider(callback, page, {
        clientName: 'Agent (MCP SDK, metadata document)',
        consentNotice: '.client-host',
        screenshot: 'consent-client-metadata-document.png',
      });
      provider.documentUrl = `${documents.origin}/agent/client.json`;
      const resource = `${server.url}/v2`;
      const requested: string[] = [];
      const recordingFetch: typeof fetch = (input, init) => {
        requested.push(input instanceof Request ? input.url : String(input));
        return fetch(input, init);
      };
      const agentFetch = withOAuth(provider, resource)(recordingFetch);

      await assert.rejects(agentFetch(`${resource}/contacts`), UnauthorizedError);
      assert.equal(provider.information?.client_id, provider.documentUrl, 'the SDK uses the document URL as client_id');
      assert.ok(
        requested.some((url) => url.endsWith('/.well-known/oauth-authorization-server')),
        'RFC 8414 discovery',
      );
      assert.ok(!requested.some((url) => new URL(url).pathname.startsWith('/register')), 'no registration call');
      const [authorization] = provider.authorizationUrls;
      assert.equal(authorization?.searchParams.get('client_id'), provider.documentUrl);
      assert.equal(provider.consentNotices[0], TEST_HOST, "the consent page shows the document's host");
      const code = callback.received.at(-1)?.get('code');
      assert.ok(code, 'the loopback listener received a code');
      const stored = await server.context.store.findClient(provider.documentUrl);
      assert.equal(stored?.secretDigest, null, 'a public client, never a shared secret');

      assert.equal(
        await auth(provider, { serverUrl: resource, authorizationCode: code, fetchFn: recordingFetch }),
        'AUTHORIZED',
      );
      const first = provider.stored;
      assert.ok(first?.access_token && first.refresh_token);
      const listed = await agentFetch(`${resource}/contacts`);
      assert.equal(listed.status, 200, await listed.clone().text());

      server.clock.advance(301);
      const again = await agentFetch(`${resource}/contacts`);
      assert.equal(again.status, 200, await again.clone().text());
      assert.notEqual(provider.stored?.access_token, first.access_token);
      assert.notEqual(provider.stored?.refresh_token, first.refresh_token);
      assert.equal(provider.authorizationUrls.length, 1, 'no second trip to the browser');
      assert.equal(documentFetches, 1, 'the document was fetched once and then served from the cache');
    });
  },
);
