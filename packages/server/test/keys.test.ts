import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeProtectedHeader } from 'jose';
import { runCli } from '../src/cli/run.js';
import { registerClient } from '../src/oauth/clients/clients.js';
import { generateSigningKey, KeyRing } from '../src/oauth/keys/keys.js';
import { systemClock } from '../src/primitives/clock.js';
import { startServer, type RunningServer } from '../src/server.js';
import { openStore } from '../src/store/open.js';
import { DIALECTS, freshDatabase } from './_dialects.js';
import { ManualClock, postForm, type TestClient } from './_server.js';

const ISSUER = 'http://gatehouse.test';

for (const dialect of DIALECTS)
  describe(`signing-key rotation without downtime [${dialect}]`, () => {
    let database: { url: string; drop(): Promise<void> };
    let signer: RunningServer;
    let verifier: RunningServer;
    let client: TestClient;
    let clock: ManualClock;

    async function keys(...argv: string[]): Promise<{ code: number; out: unknown }> {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(
        ['keys', ...argv],
        { DATABASE_URL: database.url, ISSUER },
        { out: (t) => out.push(t), err: (t) => err.push(t) },
      );
      // An answer is one JSON document on stdout; a refusal is one JSON line on stderr (then, for usage, the usage text).
      const text = code === 0 ? out.join('\n') : (err[0] ?? '');
      try {
        return { code, out: JSON.parse(text) as unknown };
      } catch {
        throw new Error(
          `gatehouse keys ${argv.join(' ')} exited ${code} with stdout ${JSON.stringify(out)} and stderr ${JSON.stringify(err)}`,
        );
      }
    }

    async function clientCredentialsToken(server: RunningServer): Promise<string> {
      const response = await postForm(`${server.url}/token`, { grant_type: 'client_credentials' }, { as: client });
      return ((await response.json()) as { access_token: string }).access_token;
    }

    async function isActiveAt(server: RunningServer, token: string): Promise<boolean> {
      const response = await postForm(`${server.url}/introspect`, { token }, { as: client });
      return ((await response.json()) as { active: boolean }).active;
    }

    const kidOf = (token: string): string | undefined => decodeProtectedHeader(token).kid;
    const jwksKids = async (server: RunningServer): Promise<string[]> =>
      ((await (await fetch(`${server.url}/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid).sort();

    before(async () => {
      database = await freshDatabase(dialect);
      // The CLI dates keys by the system clock; the servers' clock starts there and is moved by hand.
      clock = new ManualClock(Math.floor(Date.now() / 1000));
      const options = { databaseUrl: database.url, issuer: ISSUER, port: 0, host: '127.0.0.1', clock };
      signer = await startServer(options);
      verifier = await startServer(options);
      const { secret } = await registerClient(
        signer.context.store,
        { id: 'svc', name: 'Service', scope: ['a'] },
        signer.context.clock.now(),
      );
      client = { id: 'svc', secret };
    });
    after(async () => {
      await signer.close();
      await verifier.close();
      await database.drop();
    });

    /** The key that signed before any rotation, and a token it signed. */
    let firstKid: string | undefined;
    let signedByFirst: string;

    it('a rotated-in key is in /jwks of every process from the next request (no reload), but signs only after the publish delay', async () => {
      signedByFirst = await clientCredentialsToken(signer);
      const before = kidOf(signedByFirst);
      firstKid = before;
      const rotated = (await keys('rotate')).out as { kid: string; keys: { kid: string }[] };
      for (const server of [signer, verifier])
        for (const { kid } of rotated.keys) assert.ok((await jwksKids(server)).includes(kid), 'published in /jwks');
      await signer.context.keys.reload();
      assert.equal(kidOf(await clientCredentialsToken(signer)), before, 'still signing with the old key');
    });

    it('with --now the next token carries the new kid, and another process verifies it at once', async () => {
      const rotated = (await keys('rotate', '--now')).out as { kid: string; signs_from: string };
      // "At once" is the first second after the signing key's activation; the CLI judges by the wall
      // clock, the servers by theirs: let both reach it.
      const signsFrom = Date.parse(rotated.signs_from);
      await sleep(Math.max(0, signsFrom - Date.now()));
      clock.advance(signsFrom / 1000 - clock.now());
      await signer.context.keys.reload();
      const token = await clientCredentialsToken(signer);
      assert.equal(kidOf(token), rotated.kid);
      // The verifier has not reloaded: the unknown kid makes it look the key up in the store.
      assert.equal(await isActiveAt(verifier, token), true);
    });

    it('retiring an old key stops publishing and accepting it; tokens it signed become inactive', async () => {
      const listed = (await keys('list')).out as { kid: string; status: string }[];
      assert.equal(listed.find((k) => k.kid === firstKid)?.status, 'verifying', JSON.stringify(listed));
      assert.equal(await isActiveAt(verifier, signedByFirst), true, 'still accepted before it is retired');
      assert.equal((await keys('retire', firstKid as string)).code, 0);
      assert.ok(!(await jwksKids(verifier)).includes(firstKid as string), 'withdrawn from /jwks at once');
      await verifier.context.keys.reload();
      assert.equal(await isActiveAt(verifier, signedByFirst), false);
    });

    it('keys retire takes a kid that begins with a dash (base64url), not as an option', async () => {
      const store = await openStore(database.url);
      let kid: string;
      try {
        // A kid of no key yet: an earlier key's kid may begin with a dash already (one in 64).
        const [key] = (await store.listSigningKeys()).filter((k) => k.retiredAt === null && !k.kid.startsWith('-'));
        assert.ok(key);
        kid = `-${key.kid.slice(1)}`;
        await store.insertSigningKey({ ...key, kid, activatesAt: key.activatesAt + 86_400 });
      } finally {
        await store.close();
      }
      // The one inserted, not another dashed kid that an earlier test retired.
      const dashed = ((await keys('list')).out as { kid: string }[]).find((k) => k.kid === kid);
      assert.ok(dashed);
      const retired = await keys('retire', dashed.kid);
      assert.equal(retired.code, 0, JSON.stringify(retired.out));
    });

    it('the key that signs cannot be retired while no other key may sign yet', async () => {
      const listed = (await keys('list')).out as { kid: string; status: string }[];
      for (const k of listed.filter((x) => x.status === 'published'))
        assert.equal((await keys('retire', k.kid)).code, 0);
      // The access tokens' key (ES256), whose predecessor was retired above.
      const signing = ((await keys('list')).out as { kid: string; alg: string; status: string }[]).find(
        (k) => k.status === 'signing' && k.alg === 'ES256',
      );
      assert.ok(signing);
      const refused = await keys('retire', signing.kid);
      assert.equal(refused.code, 1);
      assert.match((refused.out as { message: string }).message, /no other key signs yet/);
    });
  });

describe('/jwks while the store does not answer', () => {
  it('serves the keys the process loaded last, so relying parties keep verifying through an outage', async () => {
    const database = await freshDatabase('sqlite');
    const store = await openStore(database.url);
    try {
      const ring = await KeyRing.load(store, systemClock);
      assert.deepEqual(await ring.publishedJwks(), ring.jwks, 'from the store while it answers');
      await store.close();
      assert.equal(await ring.publishedJwks(), ring.jwks);
    } finally {
      await database.drop();
    }
  });
});

describe('making a signing key', () => {
  it('an RSA key is made on the thread pool: the event loop keeps turning, so a rotation through the admin API does not stall the requests its process serves', async () => {
    let turns = 0;
    let making = true;
    const turn = (): void => {
      turns += 1;
      if (making) setImmediate(turn);
    };
    setImmediate(turn);
    const key = await generateSigningKey(0, 0, undefined, 'RS256');
    making = false;
    assert.equal(key.alg, 'RS256');
    // Made on the event loop, it would block it for the whole prime search: no turn at all.
    assert.ok(turns >= 10, `the event loop turned ${turns} times while the key was made`);
  });
});
