import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEMO_PUBLIC_CLIENT_ID, ensureDemoClient } from '../src/cli/demo.js';
import { runCli } from '../src/cli/run.js';
import { registerClient } from '../src/oauth/clients/clients.js';
import { createContext } from '../src/server.js';
import { CLI_AUDIT_SINK } from '../src/cli/open-context.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import {
  DEFAULT_PASSWORD_HASH_COST,
  hashPassword,
  passwordHashCost,
  usePasswordHashCost,
  verifyPassword,
} from '../src/users/passwords.js';
import { configFromEnv } from '../src/config.js';
import { hashTestPasswordsCheaply } from './_password-cost.js';

hashTestPasswordsCheaply();
import type { UserRecord } from '../src/store/identity-repository.js';
import { addUser, checkPassword } from '../src/users/users.js';
import { DIALECTS, freshDatabase } from './_dialects.js';
import { ISSUER } from './_oauth-assertions.js';

/** The user whose password this is, or undefined. */
async function authenticateUser(store: Store, username: string, password: string): Promise<UserRecord | undefined> {
  const check = await checkPassword(store, username, password);
  return 'user' in check ? check.user : undefined;
}

describe('user passwords (scrypt)', () => {
  // Every other test of this file hashes cheaply (test/_password-cost.ts); these two set the cost themselves.
  after(hashTestPasswordsCheaply);

  it('are stored as scrypt$N$r$p$salt$hash with a random 16-byte salt at N = 2^15 by default, and verify', async () => {
    usePasswordHashCost(DEFAULT_PASSWORD_HASH_COST);
    assert.equal(DEFAULT_PASSWORD_HASH_COST, 15);
    const one = await hashPassword('correct horse');
    const two = await hashPassword('correct horse');
    assert.match(one, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.notEqual(one, two, 'a fresh salt each time');
    assert.equal(await verifyPassword('correct horse', one), true);
    assert.equal(await verifyPassword('correct horsE', one), false);
  });

  it('PASSWORD_HASH_COST sets the cost of new hashes (log2 N, 10 to 20); unset, the default', async () => {
    assert.equal(configFromEnv({}).passwordHashCost, undefined);
    assert.equal(configFromEnv({ PASSWORD_HASH_COST: '16' }).passwordHashCost, 16);
    for (const bad of ['9', '21', '15.5', 'high', '0x10'])
      assert.throws(
        () => configFromEnv({ PASSWORD_HASH_COST: bad }),
        /PASSWORD_HASH_COST is a whole number from 10 to 20/,
      );
    assert.throws(() => usePasswordHashCost(9), RangeError);
    usePasswordHashCost(12);
    assert.equal(passwordHashCost(), 12);
    const hash = await hashPassword('correct horse');
    assert.match(hash, /^scrypt\$4096\$8\$1\$/);
    usePasswordHashCost(11);
    assert.equal(await verifyPassword('correct horse', hash), true, 'a stored hash keeps the cost it was made with');
  });

  it('the parameters travel with the hash, so a hash made with others still verifies', async () => {
    const cheap = await hashPassword('pässword', { N: 1024, r: 8, p: 1 });
    assert.match(cheap, /^scrypt\$1024\$8\$1\$/);
    assert.equal(await verifyPassword('pässword', cheap), true);
    assert.equal(await verifyPassword('pa\u0308ssword', cheap), true, 'NFC: the same password typed another way');
  });

  it('a malformed or absurd hash verifies nothing', async () => {
    for (const stored of [
      '',
      'plain',
      'scrypt$3$8$1$AAAA$AAAA',
      `scrypt$${2 ** 24}$8$1$AAAA$AAAA`,
      'bcrypt$1$2$3$4$5',
    ]) {
      assert.equal(await verifyPassword('x', stored), false, stored);
    }
  });
});

for (const dialect of DIALECTS)
  describe(`gatehouse users [${dialect}]`, () => {
    let database: { url: string; drop(): Promise<void> };
    let databaseUrl: string;
    let store: Store;

    before(async () => {
      database = await freshDatabase(dialect);
      databaseUrl = database.url;
      store = await openStore(databaseUrl);
    });
    after(async () => {
      await store.close();
      await database.drop();
    });

    async function cli(argv: string[], input?: string): Promise<{ code: number; out: string; err: string }> {
      const out: string[] = [];
      const err: string[] = [];
      const io = {
        out: (t: string) => out.push(t),
        err: (t: string) => err.push(t),
        ...(input === undefined ? {} : { readInput: async () => input }),
      };
      const code = await runCli(argv, { DATABASE_URL: databaseUrl, ISSUER }, io);
      return { code, out: out.join('\n'), err: err.join('\n') };
    }

    it('users add without --password-stdin makes a strong password and prints it once', async () => {
      const run = await cli(['users', 'add', '--username', 'Carol']);
      assert.equal(run.code, 0, run.err);
      const printed = JSON.parse(run.out) as Record<string, string>;
      assert.equal(printed.username, 'carol', 'usernames are stored lowercase');
      assert.match(printed.password as string, /^[A-Za-z0-9_-]{24}$/);
      assert.ok(await authenticateUser(store, 'carol', printed.password as string));
      assert.doesNotMatch(
        JSON.stringify((await store.findUser('carol'))?.passwordHash),
        new RegExp(printed.password as string),
      );
    });

    it('users add --password-stdin reads the password (without its line end)', async () => {
      const run = await cli(['users', 'add', '--username', 'dave', '--password-stdin'], 'a long passphrase\n');
      assert.equal(run.code, 0, run.err);
      assert.equal('password' in JSON.parse(run.out), false, 'a given password is not echoed');
      assert.ok(await authenticateUser(store, 'dave', 'a long passphrase'));
    });

    it('an empty or too-short password, a bad username, a duplicate user are refused (exit 1)', async () => {
      for (const [argv, input, message] of [
        [['users', 'add', '--username', 'erin', '--password-stdin'], '\n', /at least 8 characters/],
        [['users', 'add', '--username', 'erin', '--password-stdin'], 'short', /at least 8 characters/],
        [['users', 'add', '--username', 'not valid!', '--password-stdin'], 'long enough', /username/],
        [['users', 'add', '--username', 'dave', '--password-stdin'], 'long enough', /already exists/],
      ] as const) {
        const run = await cli([...argv], input);
        assert.equal(run.code, 1, run.out);
        assert.equal(JSON.parse(run.err).error, 'refused');
        assert.match(JSON.parse(run.err).message, message);
      }
      assert.equal(await store.findUser('erin'), undefined);
    });

    it('users add without --username is a usage error (exit 2)', async () => {
      assert.equal((await cli(['users', 'add'])).code, 2);
    });

    it('users list shows the users and never a hash', async () => {
      const run = await cli(['users', 'list']);
      assert.equal(run.code, 0);
      const users = JSON.parse(run.out) as Record<string, unknown>[];
      assert.deepEqual(
        users.map((u) => u.username),
        ['carol', 'dave'],
      );
      assert.doesNotMatch(run.out, /scrypt|hash|password/);
    });

    it('users passwd changes the password and signs the user out of every browser', async () => {
      const now = Math.floor(Date.now() / 1000);
      await store.insertBrowserSession({
        id: 'x'.repeat(64),
        csrfToken: 't',
        username: 'dave',
        authenticatedAt: now,
        createdAt: now,
        expiresAt: now + 3600,
      });
      const run = await cli(['users', 'passwd', 'dave', '--password-stdin'], 'another passphrase');
      assert.equal(run.code, 0, run.err);
      assert.equal(await authenticateUser(store, 'dave', 'a long passphrase'), undefined);
      assert.ok(await authenticateUser(store, 'dave', 'another passphrase'));
      assert.equal(await store.findBrowserSession('x'.repeat(64), now), undefined);
      assert.equal((await cli(['users', 'passwd', 'nobody', '--password-stdin'], 'long enough')).code, 1);
    });

    it('users remove removes the user and revokes every grant it gave', async () => {
      const context = await createContext(store, ISSUER, { auditSink: CLI_AUDIT_SINK });
      const { registerClient } = await import('../src/oauth/clients/clients.js');
      const { issueOperatorGrant } = await import('../src/oauth/grant-administration/operator-grants.js');
      await registerClient(store, { id: 'app', name: 'App', scope: ['contacts:read'] }, context.clock.now());
      const { grant_id } = await issueOperatorGrant(context, 'app', 'carol', ['contacts:read']);
      const run = await cli(['users', 'remove', 'carol']);
      assert.equal(run.code, 0, run.err);
      assert.deepEqual(JSON.parse(run.out), { username: 'carol', removed: true, grants_revoked: 1 });
      assert.equal(await store.findUser('carol'), undefined);
      assert.equal((await store.findGrant(grant_id))?.revokedReason, 'revoked_by_admin');
      assert.equal((await cli(['users', 'remove', 'carol'])).code, 1, 'removing again is refused');
    });

    it('the usage names the users commands, and users add --help its options', async () => {
      assert.match((await cli(['help'])).out, /users add --username NAME \[OPTIONS\]/);
      assert.match((await cli(['users', 'add', '--help'])).out, /users add --username NAME \[--password-stdin\]/);
    });
  });

describe('the demo (npm start)', () => {
  it('creates the demo user (password printed once), the public client, and prints an authorization URL with PKCE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-demo-'));
    const store = await openStore(`sqlite:${join(dir, 'x.db')}`);
    try {
      const context = await createContext(store, 'http://localhost:3000', { auditSink: CLI_AUDIT_SINK });
      const first: string[] = [];
      await ensureDemoClient(context, (line) => first.push(line));
      const text = first.join('\n');
      const password = /username: demo\n\s+password: (\S+)/.exec(text)?.[1];
      assert.ok(password, text);
      assert.ok(await authenticateUser(store, 'demo', password));
      const publicClient = await store.findClient(DEMO_PUBLIC_CLIENT_ID);
      assert.equal(publicClient?.secretDigest, null, 'a public client');
      assert.deepEqual(publicClient?.redirectUris, ['http://localhost:3000/demo/callback'], 'the server itself');
      const scopes = ['openid', 'profile', 'email', 'contacts:read', 'contacts:write'];
      assert.deepEqual(publicClient?.scope, scopes);
      assert.deepEqual((await store.findClient('demo'))?.scope, scopes);
      const [url, openid] = [...text.matchAll(/(http:\/\/localhost:3000\/authorize\?\S+)/g)].map(
        (m) => new URL(m[1] as string),
      );
      assert.ok(url && openid, text);
      assert.equal(url.searchParams.get('client_id'), DEMO_PUBLIC_CLIENT_ID);
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(url.searchParams.get('scope'), 'contacts:read contacts:write');
      // OIDC Core §3.1.2.1: an OpenID Connect request is scope openid; the demo's carries a nonce.
      assert.equal(openid.searchParams.get('scope'), 'openid profile email');
      assert.match(openid.searchParams.get('nonce') ?? '', /^[A-Za-z0-9_-]{22,}$/);
      assert.equal(openid.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(openid.searchParams.get('redirect_uri'), 'http://localhost:3000/demo/callback');
      assert.notEqual(openid.searchParams.get('state'), url.searchParams.get('state'));
      assert.deepEqual((await store.findUser('demo'))?.claims, {
        name: 'Demo User',
        email: 'demo@example.com',
        email_verified: false,
      });
      const again: string[] = [];
      await ensureDemoClient(context, (line) => again.push(line));
      assert.doesNotMatch(again.join('\n'), new RegExp(password), 'the password is shown only at first start');
      assert.match(again.join('\n'), /Demo user 'demo' exists/);
      // Served on another port: the public client (no secret to lose) is made again for it.
      const moved: string[] = [];
      await ensureDemoClient(
        await createContext(store, 'http://localhost:4000', { auditSink: CLI_AUDIT_SINK }),
        (line) => moved.push(line),
      );
      assert.match(moved.join('\n'), /Made again the demo public client/);
      assert.deepEqual((await store.findClient(DEMO_PUBLIC_CLIENT_ID))?.redirectUris, [
        'http://localhost:4000/demo/callback',
      ]);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('demo clients and user made by an earlier version, without the OpenID Connect scopes and claims, are given them; the secret and password stay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-demo-'));
    const store = await openStore(`sqlite:${join(dir, 'x.db')}`);
    try {
      const context = await createContext(store, 'http://localhost:3000', { auditSink: CLI_AUDIT_SINK });
      const old = { scope: ['contacts:read', 'contacts:write'], redirectUris: ['http://localhost:3000/demo/callback'] };
      await registerClient(store, { id: 'demo', name: 'Gatehouse demo client', ...old }, 1);
      await registerClient(store, { id: DEMO_PUBLIC_CLIENT_ID, name: 'Gatehouse demo app', public: true, ...old }, 1);
      await addUser(store, 'demo', 'an old demo password', 1);
      const secretDigest = (await store.findClient('demo'))?.secretDigest;
      const printed: string[] = [];
      await ensureDemoClient(context, (line) => printed.push(line));
      const scopes = ['contacts:read', 'contacts:write', 'openid', 'profile', 'email'];
      assert.deepEqual((await store.findClient('demo'))?.scope, scopes);
      assert.equal((await store.findClient('demo'))?.secretDigest, secretDigest);
      assert.match(
        printed.join('\n'),
        /Gave the demo client 'demo' the scopes openid profile email contacts:read contacts:write/,
      );
      assert.deepEqual((await store.findClient(DEMO_PUBLIC_CLIENT_ID))?.scope, [
        'openid',
        'profile',
        'email',
        'contacts:read',
        'contacts:write',
      ]);
      assert.equal(
        (await store.findUser('demo'))?.claims.name,
        'Demo User',
        'the demo user without claims is given them',
      );
      assert.ok(await authenticateUser(store, 'demo', 'an old demo password'), 'its password stays');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
