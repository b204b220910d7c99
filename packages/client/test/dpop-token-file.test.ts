/**
 * A TokenManager with `dpop: true` over the encrypted file store keeps the DPoP private key in the
 * token file, with the tokens (RFC 9449 §5: a bound refresh token needs the key it was issued to): the
 * next run refreshes the bound token; the key is never on disk in plaintext; sign-out and invalid_grant
 * drop it and the next sign-in gets a new key; a browser's localStorage store never receives it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { calculateJwkThumbprint, decodeJwt } from 'jose';
import {
  ApiClient,
  LocalStorageTokenStore,
  ReauthenticationRequired,
  TokenManager,
  TokenStoreError,
  type KeyValueStorage,
  type StoredTokens,
} from '@gatehouse/client';
import { FileTokenStore } from '@gatehouse/client/node';
import { UserAgent } from './_browser.js';
import { CALLBACK, grantIdOf, startGatehouse, type Gatehouse } from './_gatehouse.js';

const SCOPE = 'contacts:read contacts:write';

describe('the DPoP key kept with the tokens in the encrypted token file (RFC 9449 §5)', () => {
  let gatehouse: Gatehouse;
  let clientId: string;
  let dir: string;
  before(async () => {
    gatehouse = await startGatehouse({ dpopNonces: true });
    await gatehouse.addUser();
    clientId = (await gatehouse.addClient({ id: 'cli-dpop-file', public: true, scope: SCOPE.split(' ') })).id;
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-dpop-file-'));
  });
  after(async () => {
    await gatehouse.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What a CLI run makes: a file store opened anew, and a manager over it. */
  async function run(path: string, key: Buffer): Promise<TokenManager> {
    const store = await FileTokenStore.open({ path, key });
    return new TokenManager({
      issuer: gatehouse.issuer,
      clientId,
      redirectUri: CALLBACK,
      scope: SCOPE,
      store,
      dpop: true,
    });
  }

  async function signIn(manager: TokenManager): Promise<StoredTokens> {
    const { authorizationUrl } = await manager.startAuthorization();
    return manager.completeAuthorization(await new UserAgent().authorize(authorizationUrl));
  }

  async function jktOf(tokens: StoredTokens): Promise<string> {
    const jwk = tokens.dpopKey ?? assert.fail('the key is stored with the tokens');
    return calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y });
  }

  const boundTo = (accessToken: string) => (decodeJwt(accessToken).cnf as { jkt?: string } | undefined)?.jkt;

  test('the next run refreshes the bound token with the stored key, and calls the API with it (§5, §7)', async () => {
    const path = join(dir, 'restart.json');
    const key = randomBytes(32);
    const signedIn = await signIn(await run(path, key));
    const jkt = await jktOf(signedIn);
    assert.equal(boundTo(signedIn.accessToken), jkt, 'the tokens are bound to the stored key');

    const next = await run(path, key); // a new process: nothing in memory, only the file
    const refreshed = await next.refresh();
    assert.notEqual(refreshed.accessToken, signedIn.accessToken);
    assert.notEqual(refreshed.refreshToken, signedIn.refreshToken, 'the bound refresh token was rotated');
    assert.equal(boundTo(refreshed.accessToken), jkt);
    assert.equal(refreshed.dpopKey?.d, signedIn.dpopKey?.d, 'the same key, written again with the new tokens');

    const api = await ApiClient.fromServer({ baseUrl: gatehouse.apiBase, tokens: next, retry: { baseDelayMs: 1 } });
    const { record } = await api.collection<{ email: string }>('contacts').create({ email: 'restart@example.com' });
    assert.equal(record.email, 'restart@example.com');
  });

  test('the token file holds no plaintext key material, and stays mode 0600', async () => {
    const path = join(dir, 'plaintext.json');
    const tokens = await signIn(await run(path, randomBytes(32)));
    const text = readFileSync(path, 'utf8');
    const jwk = tokens.dpopKey ?? assert.fail('a key');
    for (const secret of [jwk.d, tokens.refreshToken ?? assert.fail('a refresh token')])
      assert.equal(text.includes(secret), false);
    assert.equal(text.includes('dpopKey'), false);
    if (process.platform !== 'win32') assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  test('a tampered token file, or one under another token key, is refused with its key inside', async () => {
    const path = join(dir, 'tampered.json');
    const key = randomBytes(32);
    await signIn(await run(path, key));
    const other = await run(path, randomBytes(32));
    await assert.rejects(other.refresh(), TokenStoreError);
    const envelope = JSON.parse(readFileSync(path, 'utf8')) as { ciphertext: string };
    const bytes = Buffer.from(envelope.ciphertext, 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    writeFileSync(path, JSON.stringify({ ...envelope, ciphertext: bytes.toString('base64url') }));
    await assert.rejects((await run(path, key)).refresh(), TokenStoreError);
  });

  test('a stored key that is not an ES256 private JWK is refused as a token-store fault', async () => {
    const path = join(dir, 'badkey.json');
    const key = randomBytes(32);
    const tokens = await signIn(await run(path, key));
    const store = await FileTokenStore.open({ path, key });
    await store.write({ tokens: { ...tokens, dpopKey: { ...(tokens.dpopKey ?? assert.fail('a key')), d: '' } } });
    await assert.rejects((await run(path, key)).refresh(), TokenStoreError);
  });

  test('sign-out drops the key with the tokens; the next sign-in is bound to a new key', async () => {
    const path = join(dir, 'logout.json');
    const key = randomBytes(32);
    const manager = await run(path, key);
    const first = await jktOf(await signIn(manager));
    await manager.logout();
    assert.deepEqual((await (await FileTokenStore.open({ path, key })).read()).tokens, undefined);
    const second = await signIn(manager);
    assert.notEqual(await jktOf(second), first);
    assert.equal(boundTo(second.accessToken), await jktOf(second));
  });

  test('invalid_grant drops the key with the tokens; the next sign-in, in another run, gets a new key', async () => {
    const path = join(dir, 'revoked.json');
    const key = randomBytes(32);
    const signedIn = await signIn(await run(path, key));
    await gatehouse.revokeGrant(grantIdOf(signedIn.accessToken));
    const next = await run(path, key);
    await assert.rejects(next.refresh(), ReauthenticationRequired);
    assert.deepEqual((await (await FileTokenStore.open({ path, key })).read()).tokens, undefined);
    const again = await signIn(await run(path, key));
    assert.notEqual(await jktOf(again), await jktOf(signedIn));
  });

  test("a browser's localStorage store never receives the private key: it stays in the page's memory", async () => {
    const entries = new Map<string, string>();
    const storage: KeyValueStorage = {
      getItem: (k) => entries.get(k) ?? null,
      setItem: (k, v) => void entries.set(k, v),
      removeItem: (k) => void entries.delete(k),
    };
    const store = new LocalStorageTokenStore({ issuer: gatehouse.issuer, clientId, storage, locks: undefined });
    const manager = new TokenManager({
      issuer: gatehouse.issuer,
      clientId,
      redirectUri: CALLBACK,
      scope: SCOPE,
      store,
      dpop: true,
    });
    const tokens = await signIn(manager);
    assert.equal(tokens.dpopKey, undefined);
    assert.ok(boundTo(tokens.accessToken), 'still a DPoP-bound token');
    assert.equal([...entries.values()].join('').includes('dpopKey'), false);
    // The same manager refreshes with the key it holds in memory; sign-out drops it.
    const refreshed = await manager.refresh();
    await manager.logout();
    const again = await signIn(manager);
    assert.notEqual(boundTo(again.accessToken), boundTo(refreshed.accessToken));
  });
});
