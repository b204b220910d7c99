import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  LocalStorageTokenStore,
  TokenManager,
  TokenStoreError,
  type ExclusiveLocks,
  type KeyValueStorage,
} from '@gatehouse/client';
import { UserAgent } from './_browser.js';
import { CALLBACK, startGatehouse, type Gatehouse } from './_gatehouse.js';

/** localStorage as a page has it: strings by key. */
class MemoryStorage implements KeyValueStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

describe('LocalStorageTokenStore', () => {
  test('one entry per issuer and client; what is written reads back through another store on the same storage', async () => {
    const storage = new MemoryStorage();
    const a = new LocalStorageTokenStore({ issuer: 'https://auth.example', clientId: 'spa', storage });
    const b = new LocalStorageTokenStore({ issuer: 'https://auth.example', clientId: 'spa', storage });
    const other = new LocalStorageTokenStore({ issuer: 'https://auth.example', clientId: 'admin', storage });
    assert.deepEqual(await a.read(), {});
    await a.write({ pending: [{ state: 's', codeVerifier: 'v', redirectUri: CALLBACK, createdAt: 1 }] });
    assert.deepEqual(await b.read(), await a.read());
    assert.deepEqual(await other.read(), {});
    assert.equal(storage.items.size, 1);
    await b.delete();
    assert.deepEqual(await a.read(), {});
  });

  test('a corrupt entry is refused with TokenStoreError, not read as empty', async () => {
    const storage = new MemoryStorage();
    const store = new LocalStorageTokenStore({ issuer: 'https://auth.example', clientId: 'spa', storage });
    storage.setItem(store.key, '{not json');
    await assert.rejects(store.read(), TokenStoreError);
    storage.setItem(store.key, '"a string"');
    await assert.rejects(store.read(), TokenStoreError);
  });

  test('the lock is an exclusive Web Lock named after the entry', async () => {
    const requests: unknown[] = [];
    const locks: ExclusiveLocks = {
      request: (async (name: string, options: LockOptions, callback: () => Promise<unknown>) => {
        requests.push([name, options]);
        return callback();
      }) as ExclusiveLocks['request'],
    };
    const store = new LocalStorageTokenStore({
      issuer: 'https://a',
      clientId: 'spa',
      storage: new MemoryStorage(),
      locks,
    });
    assert.equal(await store.withExclusiveLock(async () => 42), 42);
    assert.deepEqual(requests, [[store.key, { mode: 'exclusive' }]]);
  });

  test(
    'without localStorage (outside a browser, no storage given) it says so',
    { skip: 'localStorage' in globalThis && 'this runtime has a localStorage' },
    () => {
      assert.throws(() => new LocalStorageTokenStore({ issuer: 'https://a', clientId: 'spa' }), TokenStoreError);
    },
  );
});

describe('LocalStorageTokenStore against Gatehouse', () => {
  let gatehouse: Gatehouse;
  before(async () => {
    gatehouse = await startGatehouse();
    await gatehouse.addUser();
  });
  after(() => gatehouse.close());

  test('the PKCE verifier and state survive the redirect: the page that comes back completes the authorization', async () => {
    const client = await gatehouse.addClient({ id: 'spa', public: true });
    const storage = new MemoryStorage();
    const pageLoad = (): TokenManager =>
      new TokenManager({
        issuer: gatehouse.issuer,
        clientId: client.id,
        redirectUri: CALLBACK,
        scope: 'contacts:read',
        store: new LocalStorageTokenStore({ issuer: gatehouse.issuer, clientId: client.id, storage }),
        now: gatehouse.clock.nowMs,
      });

    const { authorizationUrl } = await pageLoad().startAuthorization();
    const callbackUrl = await new UserAgent().authorize(authorizationUrl);
    const tokens = await pageLoad().completeAuthorization(callbackUrl); // a new page, a new manager

    assert.equal(tokens.scope, 'contacts:read');
    assert.ok(tokens.refreshToken);
    const saved = JSON.parse(storage.getItem([...storage.items.keys()][0] ?? '') ?? '{}') as { pending?: unknown[] };
    assert.deepEqual(saved.pending, [], 'the pending request is spent');
    assert.equal(await pageLoad().getAccessToken(), tokens.accessToken, 'the next page load has the tokens');
  });
});
