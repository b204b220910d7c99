import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  bodyOf,
  EMPTY_FORM,
  formOf,
  issuerRefusal,
  privateJwkRefusal,
  wordsOf,
  type Upstream,
} from '../src/pages/upstream-fields.js';

const CORP: Upstream = {
  id: 'corp',
  issuer: 'https://login.corp.example',
  client_id: 'gatehouse',
  client_auth: 'client_secret_basic',
  credential_sealed: true,
  scopes: ['openid', 'profile', 'email'],
  display_name: 'Corp',
  domains: ['corp.example'],
  trust_email_verified_domains: [],
  provision: false,
  claims: { preferred_username: 'upn' },
  end_session: true,
  mfa_acr_values: ['urn:corp:mfa'],
};

describe("the console's upstream provider form (docs/federation.md, Configuring upstreams)", () => {
  it('accepts an https issuer, or plain http on loopback only, as the server does (OIDC Discovery §3)', () => {
    for (const ok of [
      'https://login.corp.example',
      'http://127.0.0.2:4000',
      'http://[::1]:4000',
      'http://localhost:4000',
      '',
    ])
      assert.equal(issuerRefusal(ok), undefined, ok);
    assert.equal(issuerRefusal('http://idp.example'), 'https');
    assert.equal(issuerRefusal('ftp://idp.example'), 'https');
    assert.equal(issuerRefusal('https://idp.example/?x=1'), 'query');
    assert.equal(issuerRefusal('https://idp.example/#f'), 'query');
    assert.equal(issuerRefusal('https://user:pw@idp.example'), 'query');
    assert.equal(issuerRefusal('not a url'), 'url');
  });

  it('asks a private JWK with "d" (RFC 7517 private key) for private_key_jwt', () => {
    assert.equal(privateJwkRefusal('{'), 'json');
    assert.equal(privateJwkRefusal('{"kty":"EC","x":"a","y":"b"}'), 'private');
    assert.equal(privateJwkRefusal('{"kty":"EC","d":"z"}'), undefined);
  });

  it('reads lists separated by spaces, commas or new lines', () => {
    assert.deepEqual(wordsOf(' corp.example, other.example\nthird.example '), [
      'corp.example',
      'other.example',
      'third.example',
    ]);
  });

  it('sends back every setting read, with the secret typed again (the API never answers it)', () => {
    const body = bodyOf({ ...formOf(CORP), credential: 's3cret' });
    assert.deepEqual(body, {
      issuer: 'https://login.corp.example',
      client_id: 'gatehouse',
      client_auth: 'client_secret_basic',
      client_secret: 's3cret',
      scopes: ['openid', 'profile', 'email'],
      display_name: 'Corp',
      domains: ['corp.example'],
      trust_email_verified_domains: [],
      provision: false,
      claims: { preferred_username: 'upn' },
      end_session: true,
      mfa_acr_values: ['urn:corp:mfa'],
    });
    assert.equal(formOf(CORP).credential, '', 'the form never holds a credential it did not get typed');
  });

  it('leaves out an empty display name, icon and claim, and sends a private JWK as JSON', () => {
    const body = bodyOf({
      ...EMPTY_FORM,
      issuer: ' https://idp.example ',
      clientId: 'g',
      clientAuth: 'private_key_jwt',
      credential: '{"kty":"EC","d":"z"}',
      claims: { name: ' ', email: 'mail' },
    });
    assert.equal(body['issuer'], 'https://idp.example');
    assert.deepEqual(body['private_jwk'], { kty: 'EC', d: 'z' });
    assert.equal('client_secret' in body, false);
    assert.equal('display_name' in body, false);
    assert.equal('icon' in body, false);
    assert.deepEqual(body['claims'], { email: 'mail' });
  });
});
