import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { runCli } from '../src/cli/run.js';
import { registerClient } from '../src/oauth/clients/clients.js';
import { isSealed, KeyEncryption } from '../src/oauth/keys/key-sealing.js';
import { generateSigningKey } from '../src/oauth/keys/keys.js';
import { startServer } from '../src/server.js';
import { openStore } from '../src/store/open.js';
import { DIALECTS, freshDatabase } from './_dialects.js';
import { postForm } from './_server.js';

const ISSUER = 'http://gatehouse.test';
const KEK = 'k'.repeat(16) + 'an operator secret of 32+ characters';
const OTHER_KEK = 'another operator secret, also long enough';

describe('sealing a private key (AES-256-GCM under KEY_ENCRYPTION_KEY)', () => {
  const encryption = KeyEncryption.fromSecret(KEK);

  it('seals and opens; the sealed form holds no private key material', async () => {
    const key = await generateSigningKey(0, 0);
    const sealed = encryption.seal(key.privateJwk as JsonWebKey, key.kid);
    assert.ok(isSealed(sealed));
    assert.doesNotMatch(JSON.stringify(sealed), new RegExp((key.privateJwk as { d: string }).d));
    assert.deepEqual(encryption.open(sealed, key.kid), key.privateJwk);
  });

  it('a sealed key does not open under another kid, with another encryption key, or altered', async () => {
    const key = await generateSigningKey(0, 0);
    const sealed = encryption.seal(key.privateJwk as JsonWebKey, key.kid);
    assert.throws(() => encryption.open(sealed, 'another-kid'), /does not open/);
    assert.throws(
      () => KeyEncryption.fromSecret(OTHER_KEK).open(sealed, key.kid),
      /sealed with another KEY_ENCRYPTION_KEY/,
    );
    const flipped = { ...sealed, data: `${sealed.data[0] === 'A' ? 'B' : 'A'}${sealed.data.slice(1)}` };
    assert.throws(() => encryption.open(flipped, key.kid), /does not open/);
  });

  it('refuses an encryption key shorter than 32 characters', () => {
    assert.throws(() => KeyEncryption.fromSecret('short'), /at least 32 characters/);
  });
});

for (const dialect of DIALECTS)
  describe(`signing keys sealed at rest [${dialect}]`, () => {
    let database: { url: string; drop(): Promise<void> };
    before(async () => {
      database = await freshDatabase(dialect);
    });
    after(() => database.drop());

    async function storedKeys(): Promise<{ kid: string; privateJwk: unknown }[]> {
      const store = await openStore(database.url);
      try {
        return await store.listSigningKeys();
      } finally {
        await store.close();
      }
    }

    async function cli(
      env: Record<string, string>,
      ...argv: string[]
    ): Promise<{ code: number; out: string; err: string }> {
      let out = '';
      let err = '';
      const code = await runCli(
        argv,
        { DATABASE_URL: database.url, ISSUER, ...env },
        { out: (t) => (out += t), err: (t) => (err += t) },
      );
      return { code, out, err };
    }

    it('a store started without the key keeps it in plaintext; started with it, every key is sealed and tokens still verify', async () => {
      const plain = await startServer({ databaseUrl: database.url, issuer: ISSUER, port: 0, host: '127.0.0.1' });
      await plain.close();
      assert.equal(
        (await storedKeys()).some((k) => isSealed(k.privateJwk)),
        false,
      );

      const server = await startServer({
        databaseUrl: database.url,
        issuer: ISSUER,
        port: 0,
        host: '127.0.0.1',
        keyEncryptionKey: KEK,
      });
      try {
        const keys = await storedKeys();
        assert.ok(keys.length > 0 && keys.every((k) => isSealed(k.privateJwk)), 'sealed at start');
        assert.ok(
          keys.every((k) => !JSON.stringify(k.privateJwk).includes('"d"')),
          'no private scalar stored',
        );
        const { secret } = await registerClient(
          server.context.store,
          { id: 'svc', name: 'Service', scope: ['a'] },
          server.context.clock.now(),
        );
        const response = await postForm(
          `${server.url}/token`,
          { grant_type: 'client_credentials' },
          { as: { id: 'svc', secret } },
        );
        const { access_token } = (await response.json()) as { access_token: string };
        const { payload } = await jwtVerify(access_token, createRemoteJWKSet(new URL(`${server.url}/jwks`)), {
          issuer: ISSUER,
        });
        assert.equal(payload.client_id, 'svc');
      } finally {
        await server.close();
      }
    });

    it('without the key, or with another one, the server refuses to start and says why', async () => {
      await assert.rejects(
        startServer({ databaseUrl: database.url, issuer: ISSUER, port: 0, host: '127.0.0.1' }),
        /is sealed: set KEY_ENCRYPTION_KEY/,
      );
      await assert.rejects(
        startServer({
          databaseUrl: database.url,
          issuer: ISSUER,
          port: 0,
          host: '127.0.0.1',
          keyEncryptionKey: OTHER_KEK,
        }),
        /sealed with another KEY_ENCRYPTION_KEY/,
      );
    });

    it('`keys rotate` seals the new key, `keys list` says so, and `keys seal` seals what was stored in plaintext', async () => {
      const rotated = await cli({ KEY_ENCRYPTION_KEY: KEK }, 'keys', 'rotate');
      assert.equal(rotated.code, 0, rotated.err);
      const listed = JSON.parse((await cli({}, 'keys', 'list')).out) as { kid: string; sealed: boolean }[];
      assert.ok(listed.every((k) => k.sealed));
      const store = await openStore(database.url);
      try {
        const key = await generateSigningKey(Math.floor(Date.now() / 1000));
        await store.insertSigningKey(key);
      } finally {
        await store.close();
      }
      const sealed = await cli({ KEY_ENCRYPTION_KEY: KEK }, 'keys', 'seal');
      assert.equal(sealed.code, 0, sealed.err);
      assert.equal((JSON.parse(sealed.out) as { sealed: string[] }).sealed.length, 1);
      assert.ok((await storedKeys()).every((k) => isSealed(k.privateJwk)));
      assert.equal((await cli({}, 'keys', 'seal')).code, 1, 'sealing needs the key');
    });
  });
