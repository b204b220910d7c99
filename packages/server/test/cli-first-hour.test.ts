import assert from 'node:assert/strict';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { registerClient } from '../src/oauth/clients/clients.js';
import { signEs256Jwt } from '../src/oauth/tokens/jwt.js';
import { createContext, startServer, type RunningServer } from '../src/server.js';
import { CLI_AUDIT_SINK } from '../src/cli/open-context.js';
import { openStore } from '../src/store/open.js';
import { runCliCaptured, runNodeScript } from './_cli.js';
import { childEnv, GATEHOUSE_BIN, isRunning, runInGroup, spawnGroup, spawnServer } from './_processes.js';
import { ensureTestUser, SHIPPED_OPENAPI } from './_server.js';
import { until } from './_until.js';

const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
/** The committed bin, as npm links it. */
const BIN = fileURLToPath(new URL('../bin/gatehouse.js', import.meta.url));
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;
const KEY_ENCRYPTION_KEY = 'k'.repeat(32);

const mode = (path: string): number => statSync(path).mode & 0o777;
const refusal = (err: string): { error: string; message: string } =>
  JSON.parse(err.split('\n')[0] as string) as { error: string; message: string };

describe('the CLI as a new user meets it', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-first-hour-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('where the database is', () => {
    it('a command other than serve and migrate never creates a database: a missing file is an error naming the absolute path it looked at', async () => {
      for (const [url, file] of [
        [`sqlite:${join(dir, 'missing', 'x.db')}`, join(dir, 'missing', 'x.db')],
        ['sqlite:first-hour-missing/x.db', resolve('first-hour-missing/x.db')],
      ] as const) {
        const run = await runCliCaptured(['clients', 'list'], { DATABASE_URL: url });
        assert.equal(run.code, 1, run.err);
        assert.equal(run.out, '');
        assert.equal(refusal(run.err).error, 'refused');
        assert.match(refusal(run.err).message, new RegExp(`^no SQLite database at ${file.replace(/[.]/g, '\\.')} `));
        assert.equal(existsSync(dirname(file)), false, 'no folder made');
      }
    });

    it('a sqlite: URL with a query string is refused, by migrate too, and no file is made', async () => {
      for (const command of [['clients', 'list'], ['migrate']]) {
        const run = await runCliCaptured(command, { DATABASE_URL: `sqlite:${join(dir, 'q.db')}?mode=ro` });
        assert.equal(run.code, 1);
        assert.match(refusal(run.err).message, /a sqlite: URL is a file path and takes no query string/);
      }
      assert.deepEqual(
        readdirSync(dir).filter((name) => name.startsWith('q.db')),
        [],
      );
    });

    it('without DATABASE_URL every folder of a project means data/gatehouse.db in its root, which only migrate (or serve) creates: folder 0700, file 0600', async () => {
      const project = join(dir, 'project');
      const folder = join(project, 'packages', 'app');
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(project, 'package-lock.json'), '{}');
      const database = join(project, 'data', 'gatehouse.db');

      const missing = await runNodeScript(GATEHOUSE_BIN, ['clients', 'list'], { cwd: folder });
      assert.equal(missing.code, 1, missing.err);
      assert.match(
        refusal(missing.err).message,
        new RegExp(`^no SQLite database at ${database.replace(/[.]/g, '\\.')} `),
      );
      assert.equal(existsSync(join(project, 'data')), false);

      const migrated = await runNodeScript(GATEHOUSE_BIN, ['migrate'], { cwd: folder });
      assert.equal(migrated.code, 0, migrated.err);
      assert.equal((JSON.parse(migrated.out) as { database: string }).database, database);
      assert.equal(mode(join(project, 'data')), 0o700);
      assert.equal(mode(database), 0o600);

      const listed = await runNodeScript(GATEHOUSE_BIN, ['clients', 'list'], { cwd: project });
      assert.equal(listed.code, 0, listed.err);
      assert.equal(listed.out.trim(), '[]');
    });

    it('the SQLite -wal and -shm files are created 0600, as the database file is', async () => {
      const file = join(dir, 'private', 'nested', 'x.db');
      const store = await openStore(`sqlite:${file}`);
      try {
        await registerClient(store, { id: 'c', name: 'C', scope: ['a'] }, 1);
        assert.equal(mode(join(dir, 'private')), 0o700);
        assert.equal(mode(join(dir, 'private', 'nested')), 0o700);
        for (const name of ['x.db', 'x.db-wal', 'x.db-shm']) assert.equal(mode(join(dirname(file), name)), 0o600, name);
      } finally {
        await store.close();
      }
    });
  });

  describe('the issuer', () => {
    const SERVED_ISSUER = 'http://127.0.0.1:4040';
    let server: RunningServer;
    let env: { DATABASE_URL: string };

    before(async () => {
      env = { DATABASE_URL: `sqlite:${join(dir, 'issuer.db')}` };
      server = await startServer({
        databaseUrl: env.DATABASE_URL,
        issuer: SERVED_ISSUER,
        port: 0,
        host: '127.0.0.1',
        api: SHIPPED_OPENAPI,
      });
      await registerClient(server.context.store, { id: 'svc', name: 'Service', scope: ['contacts:read'] }, 1);
      // grants issue gives a user's grant: alice must exist.
      await ensureTestUser(server.context.store, 'alice', 1);
    });
    after(() => server.close());

    const issue = (extra: Record<string, string> = {}): Promise<Record<string, string>> =>
      runCliCaptured(['grants', 'issue', '--client', 'svc', '--user', 'alice', '--scope', 'contacts:read'], {
        ...env,
        ...extra,
      }).then((run) => {
        assert.equal(run.code, 0, run.err);
        return JSON.parse(run.out) as Record<string, string>;
      });
    const listContacts = (token: string): Promise<Response> =>
      fetch(`${server.url}/v2/contacts`, { headers: { authorization: `Bearer ${token}` } });

    it('grants issue without ISSUER (and without PORT) uses and prints the issuer the server runs with; the server accepts its token', async () => {
      const issued = await issue();
      assert.equal(issued.issuer, SERVED_ISSUER);
      assert.equal((await listContacts(issued.access_token as string)).status, 200);
    });

    it('with ISSUER naming another server, the token is refused with invalid_token whose detail names both issuers (RFC 9068 §4 iss), at the REST API and at /userinfo', async () => {
      const issued = await issue({ ISSUER: 'http://localhost:3000' });
      assert.equal(issued.issuer, 'http://localhost:3000');
      const response = await listContacts(issued.access_token as string);
      assert.equal(response.status, 401);
      const problem = (await response.json()) as { type: string; detail: string };
      assert.equal(problem.type, '/problems/invalid-token');
      assert.equal(
        problem.detail,
        `The access token was issued by 'http://localhost:3000', not by this server ('${SERVED_ISSUER}').`,
      );
      const userinfo = await fetch(`${server.url}/userinfo`, {
        headers: { authorization: `Bearer ${issued.access_token}` },
      });
      assert.equal(userinfo.status, 401);
      assert.deepEqual(await userinfo.json(), {
        error: 'invalid_token',
        error_description: 'the access token was issued by another issuer or for another audience than this server',
        error_uri: `${SERVED_ISSUER}/problems/bearer-invalid-token`,
      });
    });

    it("a token of this server's keys for another audience is refused naming the audience (RFC 9068 §4 aud); one of unknown keys keeps the general detail", async () => {
      const now = Math.floor(Date.now() / 1000);
      const claims = { iss: SERVED_ISSUER, sub: 'alice', client_id: 'svc', scope: 'contacts:read', jti: 'j' };
      const { kid, key } = server.context.keys.signingKey;
      const header = { alg: 'ES256', typ: 'at+jwt', kid } as const;
      const otherAudience = signEs256Jwt(
        header,
        { ...claims, aud: 'https://api.other.example', iat: now, exp: now + 60 },
        key,
      );
      const response = await listContacts(otherAudience);
      assert.equal(response.status, 401);
      assert.equal(
        ((await response.json()) as { detail: string }).detail,
        `The access token is for the audience 'https://api.other.example', not for this server ('${SERVED_ISSUER}').`,
      );
      const expired = signEs256Jwt(
        header,
        { ...claims, iss: 'http://elsewhere', aud: SERVED_ISSUER, iat: 1, exp: 2 },
        key,
      );
      assert.equal(
        ((await (await listContacts(expired)).json()) as { detail: string }).detail,
        'The access token is malformed, expired, or not signed by this server.',
      );
    });
  });

  it('commands that do not sign need no KEY_ENCRYPTION_KEY on a store whose keys are sealed; grants issue does, and says so', async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'sealed.db')}` };
    const store = await openStore(env.DATABASE_URL);
    await createContext(store, 'http://gatehouse.test', {
      keyEncryptionKey: KEY_ENCRYPTION_KEY,
      auditSink: CLI_AUDIT_SINK,
    });
    await store.close();
    for (const argv of [
      ['clients', 'add', '--id', 'svc', '--name', 'Service', '--scope', 'a'],
      ['clients', 'list'],
      ['users', 'add', '--username', 'carol'],
      ['users', 'list'],
      ['keys', 'list'],
      ['audit'],
    ]) {
      const run = await runCliCaptured(argv, env);
      assert.equal(run.code, 0, `${argv.join(' ')}: ${run.err}`);
    }
    const keys = JSON.parse((await runCliCaptured(['keys', 'list'], env)).out) as { sealed: boolean }[];
    assert.ok(keys.length > 0 && keys.every((k) => k.sealed));
    const issue = await runCliCaptured(['grants', 'issue', '--client', 'svc', '--user', 'carol', '--scope', 'a'], env);
    assert.equal(issue.code, 1);
    assert.match(refusal(issue.err).message, /is sealed: set KEY_ENCRYPTION_KEY/);
    // Rotating would store a plaintext key beside the sealed ones.
    const rotate = await runCliCaptured(['keys', 'rotate'], env);
    assert.equal(rotate.code, 1);
    assert.match(refusal(rotate.err).message, /^the stored keys are sealed: set KEY_ENCRYPTION_KEY/);
    const signed = await runCliCaptured(['grants', 'issue', '--client', 'svc', '--user', 'carol', '--scope', 'a'], {
      ...env,
      KEY_ENCRYPTION_KEY,
    });
    assert.equal(signed.code, 0, signed.err);
  });

  it('clients add --public without --scope is refused with the reason, and registers nothing', async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'public.db')}` };
    assert.equal((await runCliCaptured(['migrate'], env)).code, 0);
    const run = await runCliCaptured(
      [
        'clients',
        'add',
        '--id',
        'cli',
        '--name',
        'Command line',
        '--public',
        '--redirect-uri',
        'http://127.0.0.1:8765/callback',
      ],
      env,
    );
    assert.equal(run.code, 1);
    assert.match(refusal(run.err).message, /^a public client needs a scope \(--scope.*refused with invalid_scope/);
    assert.equal((await runCliCaptured(['clients', 'list'], env)).out.trim(), '[]');
  });

  describe('the command line', () => {
    it('gatehouse --version prints the version of the package', async () => {
      const run = await runNodeScript(BIN, ['--version']);
      assert.equal(run.code, 0, run.err);
      assert.equal(run.out, `${VERSION}\n`);
    });

    it('an unknown command or subcommand names the nearest known one (edit distance), or none when nothing is near', async () => {
      const cases: [string[], RegExp][] = [
        [['clinets', 'list'], /^unknown command 'clinets'; did you mean 'clients'\?$/],
        [['clients', 'ad'], /^unknown clients command 'ad'; did you mean 'add'\?$/],
        [['keys', 'rotat'], /^unknown keys command 'rotat'; did you mean 'rotate'\?$/],
        [['frobnicate'], /^unknown command 'frobnicate'$/],
      ];
      for (const [argv, message] of cases) {
        const run = await runCliCaptured(argv, { DATABASE_URL: `sqlite:${join(dir, 'none.db')}` });
        assert.equal(run.code, 2);
        assert.equal(refusal(run.err).error, 'usage');
        assert.match(refusal(run.err).message, message);
      }
    });

    it('AUTO_MIGRATE accepts only true or false: anything else stops serve before it opens anything', async () => {
      for (const value of ['yes', 'FALSE', '0']) {
        const run = await runCliCaptured(['serve'], {
          AUTO_MIGRATE: value,
          DATABASE_URL: `sqlite:${join(dir, 'am.db')}`,
        });
        assert.equal(run.code, 1);
        assert.equal(refusal(run.err).message, `AUTO_MIGRATE must be true or false, got ${JSON.stringify(value)}`);
      }
      assert.equal(existsSync(join(dir, 'am.db')), false);
    });

    it('a startup error is readable text on a terminal, JSON when stderr is not one', async (t) => {
      const env = { AUTO_MIGRATE: 'maybe' };
      const piped = await runNodeScript(GATEHOUSE_BIN, ['serve'], { env });
      assert.equal(piped.code, 1);
      assert.deepEqual(JSON.parse(piped.err), {
        error: 'failed',
        message: 'AUTO_MIGRATE must be true or false, got "maybe"',
      });
      // A terminal: script(1) of util-linux runs the command on a pseudo-terminal.
      const script = `'${process.execPath}' '${GATEHOUSE_BIN}' serve`;
      const ran = await runInGroup('script', ['-qec', script, '/dev/null'], { env: childEnv(env) });
      if (ran.code === null && /ENOENT/.test(ran.err)) return t.skip('no script(1) to make a terminal');
      const onTerminal = ran.out;
      assert.equal(onTerminal.trim(), 'gatehouse: error: AUTO_MIGRATE must be true or false, got "maybe"');
    });
  });

  describe('stopping', () => {
    it('SIGTERM to `npx gatehouse serve` stops the server process itself, which logs the requests it drained; it warned once that the keys are in plaintext', async () => {
      const npx = spawnGroup('npx', ['gatehouse', 'serve'], {
        cwd: REPO_ROOT,
        env: childEnv({ DATABASE_URL: `sqlite:${join(dir, 'npx.db')}`, PORT: '0', LOG_LEVEL: 'info' }),
      });
      try {
        // Fastify's own line, which carries the server's pid: it may come after the CLI's "listening on"
        // (pino writes asynchronously, the CLI's lines synchronously), so it is waited for itself.
        const [, found] = await npx.waitForOutput(/"pid":(\d+)[^\n]*Server listening/, 'npx gatehouse serve listens');
        const pid = Number(found);
        assert.notEqual(pid, npx.pid, 'the server runs in a process of its own under npx');
        npx.child.kill('SIGTERM');
        await until(() => !isRunning(pid), 'the server process is gone', 10_000);
        await npx.waitForOutput(/stopped after draining/, 'the server logged its stop');
      } finally {
        // npx and anything it left: the server too, had it not stopped.
        npx.kill();
      }
      const output = npx.output();
      assert.match(output, /"drainedRequests":0,"msg":"stopped after draining 0 request\(s\)"/);
      assert.equal(output.match(/"level":40[^\n]*PLAINTEXT/g)?.length, 1, output);
    });

    it('a request in flight at SIGTERM is answered, and counted in the shutdown log; --demo does not warn of plaintext keys', async () => {
      const server = await spawnServer({ DATABASE_URL: `sqlite:${join(dir, 'drain.db')}`, LOG_LEVEL: 'info' }, [
        '--demo',
      ]);
      try {
        const { hostname, port } = new URL(server.url);
        const socket = connect(Number(port), hostname);
        await once(socket, 'connect');
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
        // An error of the connection (EPIPE, ECONNRESET: a server that went before the body came) is
        // written into the answer, which the assertions then show, instead of being thrown unhandled.
        socket.on('error', (error: NodeJS.ErrnoException) => (answer += `[${error.code ?? error.message}]`));
        const body = 'grant_type=client_credentials&client_id=nobody';
        // Headers and half the body: the request is in flight until the rest comes. Node's server
        // answers `Expect: 100-continue` (RFC 9110 §10.1.1) as it hands the request to the app, which
        // counts it in flight then: the interim answer says the server holds the request.
        socket.write(
          `POST /token HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
        );
        await until(
          () => answer.startsWith('HTTP/1.1 100 Continue\r\n\r\n'),
          () => `100 Continue: ${answer}`,
        );
        socket.write(body.slice(0, 10));
        // Listened for before the rest of the body goes: the process may exit as soon as it answers.
        const exited = once(server.child, 'exit');
        server.child.kill('SIGTERM');
        await until(
          () => server.output().includes('finishing 1 request(s) in flight'),
          () => server.output(),
        );
        if (socket.writable) socket.write(body.slice(10));
        await until(
          () => /\r\n\r\n\{/.test(answer),
          () => `the answer: ${answer}`,
        );
        assert.match(answer, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 401 /);
        await exited;
        assert.match(server.output(), /"drainedRequests":1,"msg":"stopped after draining 1 request\(s\)"/);
        assert.doesNotMatch(server.output(), /PLAINTEXT/);
      } finally {
        await server.stop();
      }
    });
  });
});
