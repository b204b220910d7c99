import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { TokenStoreError, type TokenStoreState } from '@gatehouse/client';
import { FileTokenStore, TOKEN_KEY_ENV } from '@gatehouse/client/node';

const STATE: TokenStoreState = {
  tokens: {
    accessToken: 'eyJhbGciOi.access.token',
    tokenType: 'Bearer',
    accessTokenExpiresAt: 1_900_000_000_000,
    refreshToken: 'refresh-token-plaintext-value',
    scope: 'contacts:read',
    obtainedAt: 1,
  },
  pending: [
    {
      state: 'state-value',
      codeVerifier: 'verifier-value-verifier-value-verifier-value',
      redirectUri: 'http://127.0.0.1:8765/callback',
      createdAt: 1,
    },
  ],
};

const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe('FileTokenStore: AES-256-GCM, 0600, atomic', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'gatehouse-store-')), 'config');
    path = join(dir, 'tokens.enc');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  test('a missing file reads as empty; what is written reads back, also through a new store with the same key file', async () => {
    const store = await FileTokenStore.open({ path, env: {} });
    assert.deepEqual(await store.read(), {});
    await store.write(STATE);
    assert.deepEqual(await store.read(), STATE);
    assert.deepEqual(await (await FileTokenStore.open({ path, env: {} })).read(), STATE);
  });

  test('the file, the key file (created when absent) and their folder are private to the owner', async () => {
    const store = await FileTokenStore.open({ path, env: {} });
    await store.write(STATE);
    assert.equal(modeOf(path), 0o600);
    assert.equal(modeOf(`${path}.key`), 0o600);
    assert.equal(modeOf(dir), 0o700);
    assert.equal(Buffer.from(readFileSync(`${path}.key`, 'utf8').trim(), 'base64').length, 32);
  });

  test('no token is on disk in plaintext, and every write uses a new IV', async () => {
    const store = await FileTokenStore.open({ path, env: {} });
    await store.write(STATE);
    const first = readFileSync(path, 'utf8');
    await store.write(STATE);
    const second = readFileSync(path, 'utf8');
    for (const secret of ['refresh-token-plaintext-value', 'eyJhbGciOi', 'verifier-value'])
      assert.ok(!first.includes(secret), secret);
    const [a, b] = [JSON.parse(first), JSON.parse(second)];
    assert.equal(a.alg, 'A256GCM');
    assert.equal(Buffer.from(a.iv, 'base64url').length, 12);
    assert.equal(Buffer.from(a.tag, 'base64url').length, 16);
    assert.notEqual(a.iv, b.iv);
    assert.notEqual(a.ciphertext, b.ciphertext);
    assert.deepEqual(readdirSync(dir).sort(), ['tokens.enc', 'tokens.enc.key'], 'no temporary file is left behind');
  });

  test('GATEHOUSE_TOKEN_KEY is used when set, and no key file is made', async () => {
    const env = { [TOKEN_KEY_ENV]: randomBytes(32).toString('base64') };
    await (await FileTokenStore.open({ path, env })).write(STATE);
    assert.ok(!existsSync(`${path}.key`));
    assert.deepEqual(await (await FileTokenStore.open({ path, env })).read(), STATE);
    await assert.rejects(
      async () => (await FileTokenStore.open({ path, env: {} })).read(),
      TokenStoreError,
      'another key cannot decrypt it',
    );
    await assert.rejects(FileTokenStore.open({ path, env: { [TOKEN_KEY_ENV]: 'too-short' } }), {
      code: 'ERR_TOKEN_STORE',
      message: /32-byte key/,
    });
  });

  test('an altered file is refused, not half-read', async () => {
    const store = await FileTokenStore.open({ path, env: {} });
    await store.write(STATE);
    const envelope = JSON.parse(readFileSync(path, 'utf8'));
    const bytes = Buffer.from(envelope.ciphertext, 'base64url');
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    writeFileSync(path, JSON.stringify({ ...envelope, ciphertext: bytes.toString('base64url') }));
    await assert.rejects(store.read(), { code: 'ERR_TOKEN_STORE', message: /cannot be decrypted/ });
    writeFileSync(path, 'not json');
    await assert.rejects(store.read(), { code: 'ERR_TOKEN_STORE' });
  });

  test('a key file others may read is refused', async () => {
    await FileTokenStore.open({ path, env: {} });
    chmodSync(`${path}.key`, 0o644);
    await assert.rejects(FileTokenStore.open({ path, env: {} }), { code: 'ERR_TOKEN_STORE', message: /chmod 600/ });
  });
});
