import { readFileSync } from 'node:fs';
import type { SigningKeyRecord } from '../src/primitives/records.js';
import { openStore } from '../src/store/open.js';

type PremadeKey = Pick<SigningKeyRecord, 'kid' | 'alg' | 'privateJwk' | 'publicJwk'>;

/**
 * Signing keys made once, for test servers only: eight sets of an ES256 and an RS256 key, made by
 * `generateSigningKey` (src/oauth/keys/keys.ts) and written to test/fixtures/signing-keys.json. A server
 * on an empty store makes its first keys itself, and RSA 2048's prime search costs 200–1,200 ms of
 * CPU: the 165 RSA keys of a run of the server tier took 54 s, over a quarter of its CPU. A test server
 * starts instead on a store that already holds a set, as every restart of a real server does; the
 * processes tests, keys.test.ts and key-sealing.test.ts still start servers on empty stores.
 */
const SETS = JSON.parse(
  readFileSync(new URL('./fixtures/signing-keys.json', import.meta.url), 'utf8'),
) as readonly (readonly PremadeKey[])[];

let nextSet = 0;

/**
 * Migrates the store at `databaseUrl` and stores the next set of the fixture's keys, active from
 * `now`, unless it holds keys already. The sets are handed out in turn, so that servers a test runs
 * side by side sign with different keys (a token of one is not signed by the other's key).
 */
export async function storePremadeSigningKeys(databaseUrl: string, now: number): Promise<void> {
  const set = SETS[nextSet++ % SETS.length] ?? [];
  const store = await openStore(databaseUrl, { migrations: 'apply' });
  try {
    if ((await store.listSigningKeys()).length > 0) return;
    for (const key of set) await store.insertSigningKey({ ...key, createdAt: now, activatesAt: now, retiredAt: null });
  } finally {
    await store.close();
  }
}
