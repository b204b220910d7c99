/**
 * Every audit event goes through one pipe: whoever records it (the OAuth endpoints, the sign-in and
 * device pages, the account page, /register, the admin API), a server stores it, logs it once (one
 * line at warn on its root logger, without a request id) and counts it in
 * gatehouse_audit_events_total. The CLI's events are stored and written nowhere else (its stderr is
 * for its errors). Then the structure that makes it so: one insert of audit rows, one trail per
 * process, no per-request async context; and the vocabulary in `gatehouse audit --help` and
 * docs/operating.md.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AUDIT_EVENT_NAMES, AuditTrail, type AuditEvent, type AuditEventName } from '../src/audit/audit.js';
import { GRANT_REVOCATION_REASONS } from '../src/primitives/records.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { api } from './_api.js';
import { addTestUser, authorizationQuery, CALLBACK, hiddenField, obtainCode, PageBrowser, pkce } from './_authorize.js';
import { runCliCaptured } from './_cli.js';
import { DIALECTS, freshDatabase } from './_dialects.js';
import { refresh, startTestServer, VERIFIER, type TestClient, type TestServer } from './_server.js';

const ISSUER = 'http://gatehouse.test';
const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const OPERATING = fileURLToPath(new URL('../../../docs/operating.md', import.meta.url));

/** An event expected of an action: its name and its reason (null: none; a pattern: one that matches it). */
type Expected = readonly [AuditEventName, string | RegExp | null];

interface AuditedAction {
  readonly name: string;
  /** `server`: stored, logged and counted; `cli`: stored only, with actor `cli`. */
  readonly by: 'server' | 'cli';
  readonly expect: readonly Expected[];
  run(): Promise<void>;
}

/** One line of the server's log, as pino writes it. */
interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly reqId?: string;
  readonly audit?: { readonly id: string; readonly event: string; readonly reason: string | null };
}

const keyOf = ([event, reason]: Expected): string =>
  `${event}/${reason instanceof RegExp ? reason.source : (reason ?? '-')}`;

/** The expected events the store lacks and the stored events nobody expected; empty when they agree. */
function mismatches(stored: readonly AuditEvent[], expected: readonly Expected[]): string[] {
  const left = [...stored];
  const missing: string[] = [];
  for (const [event, reason] of expected) {
    const i = left.findIndex(
      (e) => e.event === event && (reason instanceof RegExp ? reason.test(e.reason ?? '') : e.reason === reason),
    );
    if (i < 0) missing.push(`missing ${keyOf([event, reason])}`);
    else left.splice(i, 1);
  }
  return [...missing, ...left.map((e) => `unexpected ${keyOf([e.event, e.reason])}`)];
}

function countIn(metrics: string, event: string): number {
  const match = new RegExp(`^gatehouse_audit_events_total\\{event="${event}"\\} (\\d+)$`, 'm').exec(metrics);
  return match ? Number(match[1]) : 0;
}

for (const dialect of DIALECTS)
  describe(`every audit event is stored, logged and counted, whoever records it [${dialect}]`, () => {
    let server: TestServer;
    let svc: TestClient;
    let tabs: TestClient;
    let app: TestClient;
    let adminToken: string;
    const lines: string[] = [];

    async function cli(...argv: string[]): Promise<Record<string, unknown>> {
      const run = await runCliCaptured(argv, { DATABASE_URL: server.databaseUrl, ISSUER });
      assert.equal(run.code, 0, run.err);
      assert.equal(run.err, '', 'a command that succeeds writes nothing to stderr, its events included');
      return JSON.parse(run.out) as Record<string, unknown>;
    }

    const storedEvents = (): Promise<AuditEvent[]> => server.context.store.listAuditEvents({ limit: 10_000 });
    const metrics = async (): Promise<string> => (await fetch(`${server.url}/metrics`)).text();
    const admin = () => api(server, adminToken);

    before(async () => {
      server = await startTestServer({
        dialect,
        clientRegistration: 'open',
        logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } },
      });
      svc = await server.addClient({ id: 'svc', grantTypes: ['refresh_token', 'authorization_code'] });
      tabs = await server.addClient({ id: 'tabs', replayWindow: 30 });
      app = await server.addClient({ id: 'app', name: 'App', public: true, redirectUris: [CALLBACK] });
      await addTestUser(server, 'alice');
      const ops = await cli('clients', 'add', '--id', 'ops', '--name', 'ops', '--admin');
      const token = await server.post(
        '/token',
        { grant_type: 'client_credentials' },
        { as: { id: 'ops', secret: ops.client_secret as string } },
      );
      adminToken = ((await token.json()) as { access_token: string }).access_token;
    });
    after(() => server.close());

    /** Signs alice in through the authorization flow of `app`; the browser keeps the session. */
    async function signedInBrowser(): Promise<{ browser: PageBrowser; code: string; verifier: string }> {
      const browser = new PageBrowser(server);
      const { verifier, challenge } = pkce();
      const { code } = await obtainCode(browser, authorizationQuery('app', challenge));
      assert.ok(code);
      return { browser, code, verifier };
    }

    const ACTIONS: readonly AuditedAction[] = [
      {
        name: 'a sign-in refused for a wrong password',
        by: 'server',
        expect: [['login_failed', 'wrong_password']],
        async run() {
          const browser = new PageBrowser(server);
          const page = await browser.authorize(authorizationQuery('app', pkce().challenge));
          assert.equal((await browser.login(page, 'alice', 'not the password at all')).status, 401);
        },
      },
      {
        name: 'a used refresh token presented again (RFC 9700 §4.14.2)',
        by: 'server',
        expect: [
          ['refresh_token_reuse_detected', null],
          ['grant_revoked', 'reuse_detected'],
        ],
        async run() {
          const issued = await server.issueGrant(svc);
          assert.equal((await refresh(server, svc, issued.refresh_token)).status, 200);
          assert.equal((await refresh(server, svc, issued.refresh_token)).status, 400);
        },
      },
      {
        name: "a replay inside the client's replay window",
        by: 'server',
        expect: [['refresh_token_replay_served', null]],
        async run() {
          const issued = await server.issueGrant(tabs);
          assert.equal((await refresh(server, tabs, issued.refresh_token)).status, 200);
          assert.equal((await refresh(server, tabs, issued.refresh_token)).status, 200);
        },
      },
      {
        name: 'a refresh token revoked by its client (RFC 7009 §2.1)',
        by: 'server',
        expect: [['grant_revoked', 'revoked_by_client']],
        async run() {
          const issued = await server.issueGrant(svc);
          assert.equal((await server.post('/revoke', { token: issued.refresh_token }, { as: svc })).status, 200);
        },
      },
      {
        name: 'an authorization code redeemed twice (RFC 6749 §4.1.2)',
        by: 'server',
        expect: [['grant_revoked', 'code_replayed']],
        async run() {
          const redirectUri = 'https://app.example/callback';
          const code = await server.createCode(svc, { verifier: VERIFIER, redirectUri });
          const form = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: VERIFIER };
          assert.equal((await server.post('/token', form, { as: svc })).status, 200);
          assert.equal((await server.post('/token', form, { as: svc })).status, 400);
        },
      },
      {
        name: 'a sign-in with the password, then an application removed by its user on /account',
        by: 'server',
        expect: [
          ['sign_in_step_passed', 'password'],
          ['grant_revoked', 'revoked_by_user'],
        ],
        async run() {
          const { browser, code, verifier } = await signedInBrowser();
          const form = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier };
          assert.equal((await server.post('/token', form, { as: app })).status, 200);
          const page = await browser.get('/account');
          const removed = await browser.post('/account/revoke', {
            csrf_token: hiddenField(page.html, 'csrf_token'),
            client_id: hiddenField(page.html, 'client_id'),
          });
          assert.equal(removed.status, 303);
        },
      },
      {
        name: 'a wrong client secret (RFC 6749 §2.3.1)',
        by: 'server',
        expect: [['client_authentication_failed', 'wrong_secret']],
        async run() {
          const form = { grant_type: 'refresh_token', refresh_token: 'x' };
          assert.equal((await server.post('/token', form, { as: { id: 'svc', secret: 'wrong-secret' } })).status, 401);
        },
      },
      {
        name: 'a wrong user code typed on /device (RFC 8628 §3.3)',
        by: 'server',
        expect: [['user_code_failed', 'unknown']],
        async run() {
          const browser = new PageBrowser(server);
          const form = await browser.get('/device');
          const csrf = hiddenField(form.html, 'csrf_token');
          assert.equal((await browser.post('/device', { csrf_token: csrf, user_code: 'BBBB-BBBB' })).status, 400);
        },
      },
      {
        name: 'a client registered, then deleted by its registration access token (RFC 7591 §3, RFC 7592 §2.3)',
        by: 'server',
        expect: [
          ['client_registered', null],
          ['client_registration_changed', 'deleted'],
        ],
        async run() {
          const registered = await registerClient();
          assert.equal(registered.status, 201);
          const info = (await registered.json()) as Record<string, string>;
          const uri = (info.registration_client_uri as string).replace(ISSUER, server.url);
          const headers = { authorization: `Bearer ${info.registration_access_token}` };
          assert.equal((await fetch(uri, { method: 'DELETE', headers })).status, 204);
        },
      },
      {
        name: 'a registration with an unknown initial access token (RFC 7591 §3)',
        by: 'server',
        expect: [['registration_refused', 'initial_access_token_invalid']],
        async run() {
          assert.equal((await registerClient('not-a-token')).status, 401);
        },
      },
      {
        name: 'the admin API: a client created, a user created, a grant revoked, a client deleted',
        by: 'server',
        expect: [
          ['client_created', null],
          ['user_created', null],
          ['grant_revoked', 'revoked_by_admin'],
          ['client_deleted', null],
        ],
        async run() {
          assert.equal((await admin().post('/admin/v1/clients', { client_id: 'made', name: 'Made' })).status, 201);
          const user = { username: 'bob', password: 'a long enough password' };
          assert.equal((await admin().post('/admin/v1/users', user)).status, 201);
          const issued = await server.issueGrant(svc);
          assert.equal((await admin().post(`/admin/v1/grants/${issued.grant_id}/revoke`)).status, 200);
          assert.equal((await admin().delete('/admin/v1/clients/made')).status, 204);
        },
      },
      {
        name: '`gatehouse users add` and `users remove`',
        by: 'cli',
        expect: [
          ['user_created', null],
          ['user_deleted', null],
        ],
        async run() {
          await cli('users', 'add', '--username', 'carol');
          await cli('users', 'remove', 'carol');
        },
      },
      {
        name: '`gatehouse clients add` and `clients remove`',
        by: 'cli',
        expect: [
          ['client_created', null],
          ['client_deleted', null],
        ],
        async run() {
          await cli('clients', 'add', '--id', 'by-cli', '--name', 'By CLI');
          await cli('clients', 'remove', 'by-cli');
        },
      },
      {
        name: '`gatehouse grants revoke`',
        by: 'cli',
        expect: [['grant_revoked', 'revoked_by_admin']],
        async run() {
          await cli('grants', 'revoke', (await server.issueGrant(svc)).grant_id);
        },
      },
      {
        name: '`gatehouse keys rotate`',
        by: 'cli',
        // The reason names the new keys, one per algorithm.
        expect: [['signing_keys_rotated', /^[\w-]+ [\w-]+$/]],
        async run() {
          await cli('keys', 'rotate');
        },
      },
    ];

    function registerClient(token?: string): Promise<Response> {
      const metadata = {
        client_name: 'Agent',
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        scope: 'contacts:read',
      };
      return fetch(`${server.url}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(metadata),
      });
    }

    for (const action of ACTIONS) {
      const where = action.by === 'server' ? 'stored, logged once and counted' : 'stored with actor cli, not logged';
      it(`${action.name}: ${action.expect.map(keyOf).join(', ')} is ${where}`, async () => {
        const known = new Set((await storedEvents()).map((e) => e.id));
        const firstLine = lines.length;
        const metricsBefore = await metrics();

        await action.run();

        const stored = (await storedEvents()).filter((e) => !known.has(e.id));
        assert.deepEqual(mismatches(stored, action.expect), [], 'the events in the store');
        const logged = lines
          .slice(firstLine)
          .map((line) => JSON.parse(line) as LogLine)
          .filter((line) => line.audit !== undefined);
        const metricsAfter = await metrics();
        const names = [...new Set(action.expect.map(([event]) => event))];
        const counted = names.map((event) => countIn(metricsAfter, event) - countIn(metricsBefore, event));
        if (action.by === 'cli') {
          assert.deepEqual(
            stored.map((e) => e.actor),
            stored.map(() => 'cli'),
          );
          assert.deepEqual(logged, [], "the CLI's events are not in the server's log");
          assert.deepEqual(
            counted,
            names.map(() => 0),
            "nor in the server's metrics",
          );
          return;
        }
        assert.deepEqual(
          logged.map((line) => line.audit?.id).sort(),
          stored.map((e) => e.id).sort(),
          'each stored event is logged, once',
        );
        for (const line of logged) {
          assert.equal(line.level, 40, 'at warn');
          assert.equal(line.msg, `audit: ${line.audit?.event}`);
          // The root logger's line: the event names its client, subject, address and time; no request
          // is followed through an async context to find its logger (that would cost every request).
          assert.equal(line.reqId, undefined, "on the server's root logger, without a request id");
        }
        assert.deepEqual(
          counted,
          names.map((event) => action.expect.filter(([e]) => e === event).length),
          'each stored event is counted in gatehouse_audit_events_total',
        );
      });
    }
  });

for (const dialect of DIALECTS)
  describe(`the trail announces what committed, once [${dialect}]`, () => {
    let database: { url: string; drop(): Promise<void> };
    let store: Store;
    before(async () => {
      database = await freshDatabase(dialect);
      store = await openStore(database.url);
    });
    after(async () => {
      await store.close();
      await database.drop();
    });

    const input = { event: 'user_created', at: 1_800_000_000, actor: 'test' } as const;

    it('a transaction that throws stores, logs and counts nothing', async () => {
      const announced: AuditEvent[] = [];
      const trail = new AuditTrail(store, (event) => announced.push(event));
      const failing = trail.transaction(async (_tx, audit) => {
        await audit({ ...input, subject: 'rolled-back' });
        throw new Error('refused after recording');
      });
      await assert.rejects(failing, /refused after recording/);
      assert.deepEqual(announced, []);
      assert.deepEqual([...trail.counts()], []);
      const stored = await store.listAuditEvents({ limit: 100 });
      assert.equal(stored.filter((e) => e.subject === 'rolled-back').length, 0);
    });

    it('a transaction the store retries (a serialization failure) announces only the attempt that committed', async () => {
      const announced: AuditEvent[] = [];
      const retrying: Store = {
        ...store,
        async transaction(work) {
          await store
            .transaction(async (tx) => {
              await work(tx);
              throw new Error('could not serialize access');
            })
            .catch(() => undefined);
          return store.transaction(work);
        },
      };
      const trail = new AuditTrail(retrying, (event) => announced.push(event));
      await trail.transaction((_tx, audit) => audit({ ...input, subject: 'retried' }));
      const stored = (await store.listAuditEvents({ limit: 100 })).filter((e) => e.subject === 'retried');
      assert.equal(stored.length, 1);
      assert.deepEqual(
        announced.map((e) => e.id),
        stored.map((e) => e.id),
      );
      assert.deepEqual([...trail.counts()], [['user_created', 1]]);
    });
  });

describe('the audit pipe is the only way to store an event', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
    );
  const sources = files(SRC).map((file) => ({ path: relative(SRC, file), code: readFileSync(file, 'utf8') }));

  it('only the audit trail inserts audit rows (the repository declares the insert, audit/audit.ts calls it)', () => {
    assert.deepEqual(
      sources.filter((s) => s.code.includes('insertAuditEvent')).map((s) => s.path),
      ['audit/audit.ts', 'store/audit-repository.ts'],
    );
    assert.deepEqual(
      sources.filter((s) => /insertInto\(\s*'audit_events'/.test(s.code)).map((s) => s.path),
      ['store/audit-repository.ts'],
    );
  });

  it('a trail is built with its sink in two places only: the server context and the CLI', () => {
    assert.deepEqual(
      sources.filter((s) => s.code.includes('new AuditTrail(')).map((s) => s.path),
      ['cli/open-context.ts', 'server.ts'],
    );
  });

  it('no request is followed through an async context (async hooks on every promise of the process)', () => {
    assert.deepEqual(
      sources.filter((s) => /AsyncLocalStorage|node:async_hooks/.test(s.code)).map((s) => s.path),
      [],
    );
  });
});

describe('the audit vocabulary is documented from the code', () => {
  it('`gatehouse audit --help` lists every event `gatehouse audit --event` takes, and nothing else', async () => {
    const help = await runCliCaptured(['audit', '--help'], {});
    assert.equal(help.code, 0);
    const names = /NAME is one of ([a-z_, ]+)\./.exec(help.out)?.[1];
    assert.deepEqual(names?.split(', '), [...AUDIT_EVENT_NAMES]);
    const refused = await runCliCaptured(['audit', '--event', 'no_such_event'], {});
    assert.equal(refused.code, 2);
    for (const name of AUDIT_EVENT_NAMES) assert.ok(refused.err.includes(name), `--event refuses naming ${name}`);
  });

  it('`gatehouse --help` lists every event `gatehouse audit --event` takes, and nothing else', async () => {
    const help = await runCliCaptured(['--help'], {});
    assert.equal(help.code, 0);
    const names = /Audit events \(gatehouse audit --event NAME\): ([a-z_,\s]+)\./.exec(help.out)?.[1];
    assert.deepEqual(names?.split(/,\s+/), [...AUDIT_EVENT_NAMES]);
  });

  it("docs/operating.md's audit section names every event and every revocation reason", () => {
    const page = readFileSync(OPERATING, 'utf8');
    const section = page.slice(page.indexOf('**Audit trail.**'), page.indexOf('**Abuse limits.**'));
    assert.ok(section.length > 0);
    for (const word of [...AUDIT_EVENT_NAMES, ...GRANT_REVOCATION_REASONS])
      assert.ok(section.includes(`\`${word}\``), `docs/operating.md's audit section names \`${word}\``);
  });
});
