/**
 * RFC 8693 token exchange with a library nobody here wrote: oauth4webapi's genericTokenEndpointRequest and
 * processGenericTokenEndpointResponse against a listening Gatehouse, found through its metadata.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { startGatehouse, type Gatehouse } from './_gatehouse.js';

const insecure = { [oauth.allowInsecureRequests]: true } as const; // the test server is plain http on loopback
const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';

describe('interop: oauth4webapi exchanges a token (RFC 8693)', () => {
  let gatehouse: Gatehouse;
  let as: oauth.AuthorizationServer;

  before(async () => {
    gatehouse = await startGatehouse();
    const issuer = new URL(gatehouse.issuer);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
  });
  after(() => gatehouse.close());

  test('§2.1, §2.2.1: the metadata names the grant; a delegated token comes back with issued_token_type and act', async () => {
    assert.ok(as.grant_types_supported?.includes(GRANT));
    await gatehouse.addClient({ id: 'app' });
    const registered = await gatehouse.addClient({
      id: 'orders',
      grantTypes: [GRANT],
      exchangeAudiences: ['https://billing.example'],
      exchangeSubjectAudiences: [gatehouse.issuer],
    });
    const user = await gatehouse.issueGrant('app', ['contacts:read']);
    const client: oauth.Client = { client_id: registered.id };
    const response = await oauth.genericTokenEndpointRequest(
      as,
      client,
      oauth.ClientSecretBasic(registered.secret ?? ''),
      GRANT,
      new URLSearchParams({
        subject_token: user.access_token,
        subject_token_type: ACCESS_TOKEN,
        audience: 'https://billing.example',
      }),
      insecure,
    );
    const tokens = await oauth.processGenericTokenEndpointResponse(as, client, response);
    assert.equal(tokens.issued_token_type, ACCESS_TOKEN);
    assert.equal(tokens.token_type, 'bearer');
    const claims = decodeJwt(tokens.access_token);
    assert.equal(claims.aud, 'https://billing.example');
    assert.deepEqual(claims.act, { sub: 'orders', client_id: 'orders' });
    assert.equal(claims.sub, decodeJwt(user.access_token).sub);
  });
});
