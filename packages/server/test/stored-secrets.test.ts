import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { digestOf } from '../src/primitives/secrets.js';
import { assertOkJson } from './_oauth-assertions.js';
import { refresh, startTestServer, VERIFIER, type TestServer } from './_server.js';
import { totpCode } from '../src/factors/totp.js';
import { addTestUser, authorizationQuery, CALLBACK, hiddenField, PageBrowser, PASSWORD, pkce } from './_authorize.js';
import { enrolmentSecret, recoveryCodes } from './_factors.js';

const REDIRECT_URI = 'https://app.example/callback';

/** Every file of the data folder (the SQLite file, its -wal and -shm), as bytes. */
function dataFiles(dataDir: string): Map<string, Buffer> {
  return new Map(readdirSync(dataDir).map((name) => [name, readFileSync(join(dataDir, name))]));
}

/** The files (by name) whose bytes contain `needle` as UTF-8. */
function filesContaining(files: Map<string, Buffer>, needle: string): string[] {
  return [...files].filter(([, bytes]) => bytes.includes(Buffer.from(needle, 'utf8'))).map(([name]) => name);
}

describe('credentials at rest: only digests are stored', () => {
  let server: TestServer;
  /** Every plaintext credential the server handed out, by what it is. */
  const secrets: Array<{ what: string; value: string }> = [];

  before(async () => {
    server = await startTestServer();
    const confidential = await server.addClient({ id: 'secret-keeper-confidential' });
    const other = await server.addClient({ id: 'secret-keeper-other', rotationLimit: 2 });
    const spa = await server.addClient({ id: 'secret-keeper-spa', public: true });
    // Its successors are derived, not random (oauth/tokens/refresh-successors.ts): still only digests at rest.
    const tabs = await server.addClient({ id: 'secret-keeper-tabs', replayWindow: 30 });
    for (const client of [confidential, other, tabs])
      secrets.push({ what: `client secret of ${client.id}`, value: client.secret as string });

    for (const [client, subject] of [
      [confidential, 'subject-alice'],
      [other, 'subject-bob'],
      [spa, 'subject-carol'],
      [tabs, 'subject-erin'],
    ] as const) {
      const issued = await server.issueGrant(client, subject);
      secrets.push({ what: `first refresh token of ${client.id}`, value: issued.refresh_token });
      const rotated = await refresh(server, client, issued.refresh_token);
      assert.equal(rotated.status, 200);
      secrets.push({ what: `rotated refresh token of ${client.id}`, value: rotated.body.refresh_token as string });
      if (client === tabs) {
        const replayed = await refresh(server, client, issued.refresh_token);
        assert.equal(
          replayed.body.refresh_token,
          rotated.body.refresh_token,
          'the replay window re-sent the successor',
        );
      }
    }

    const exchanged = await server.createCode(confidential, {
      verifier: VERIFIER,
      redirectUri: REDIRECT_URI,
      username: 'subject-dave',
    });
    secrets.push({ what: 'exchanged authorization code', value: exchanged });
    const tokens = await assertOkJson(
      await server.post(
        '/token',
        {
          grant_type: 'authorization_code',
          code: exchanged,
          redirect_uri: REDIRECT_URI,
          code_verifier: VERIFIER,
        },
        { as: confidential },
      ),
    );
    secrets.push({ what: 'refresh token from the code exchange', value: tokens.refresh_token as string });
    const pending = await server.createCode(spa, { verifier: VERIFIER, redirectUri: REDIRECT_URI });
    secrets.push({ what: 'authorization code not yet exchanged', value: pending });
  });
  after(() => server.close());

  it("the scan reads the live data: client ids, subjects and the credentials' SHA-256 digests are in the files", () => {
    const files = dataFiles(server.dataDir);
    assert.ok(files.size >= 1);
    for (const visible of ['secret-keeper-confidential', 'secret-keeper-spa', 'subject-alice', 'subject-dave']) {
      assert.notDeepEqual(filesContaining(files, visible), [], `${visible} should be found by the scan`);
    }
    for (const { what, value } of secrets)
      assert.notDeepEqual(filesContaining(files, digestOf(value)), [], `digest of the ${what}`);
  });

  it('no file of the data folder (database, WAL, shared memory) holds a refresh token, client secret or authorization code in plaintext', () => {
    const files = dataFiles(server.dataDir);
    assert.ok(
      [...files.keys()].some((name) => name.endsWith('-wal')),
      'the WAL is scanned while the server runs',
    );
    assert.equal(secrets.length, 14);
    for (const { what, value } of secrets)
      assert.deepEqual(filesContaining(files, value), [], `the ${what} is stored in plaintext`);
  });

  it('after a WAL checkpoint into the main database file, still no credential is in plaintext', () => {
    const [databaseFile] = [...dataFiles(server.dataDir).keys()].filter((name) => name.endsWith('.db'));
    assert.ok(databaseFile);
    const connection = new Database(join(server.dataDir, databaseFile));
    try {
      connection.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      connection.close();
    }
    const files = dataFiles(server.dataDir);
    assert.notDeepEqual(
      filesContaining(new Map([[databaseFile, files.get(databaseFile) as Buffer]]), 'subject-dave'),
      [],
      'the checkpoint moved the data into the database file',
    );
    for (const { what, value } of secrets)
      assert.deepEqual(filesContaining(files, value), [], `the ${what} is stored in plaintext`);
  });
});

describe('second factors at rest, in the log and in /metrics: never in plaintext', () => {
  let server: TestServer;
  const lines: string[] = [];
  let secret = '';
  let codes: string[] = [];
  let metrics = '';

  before(async () => {
    server = await startTestServer({
      secondFactor: 'required',
      logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } },
    });
    await server.addClient({ id: 'payroll', name: 'Payroll', redirectUris: [CALLBACK], public: true });
    await addTestUser(server, 'alice');
    const browser = new PageBrowser(server);
    const query = authorizationQuery('payroll', pkce().challenge);
    const login = await browser.authorize(query);
    const enrolPage = await browser.login(login, 'alice', PASSWORD, { method: 'password' });
    secret = enrolmentSecret(enrolPage.html);
    const shown = await browser.post('/login', {
      csrf_token: hiddenField(enrolPage.html, 'csrf_token'),
      request: hiddenField(enrolPage.html, 'request'),
      method: 'otp_enrolment',
      enrolment: hiddenField(enrolPage.html, 'enrolment'),
      code: totpCode(secret, server.clock.now()),
    });
    codes = recoveryCodes(shown.html);
    assert.equal(codes.length, 10);
    // A recovery code used, and a wrong one typed: both pass through the log's request lines.
    for (const code of [codes[0] as string, codes[0] as string]) {
      const other = new PageBrowser(server);
      const page = await other.login(await other.authorize(query), 'alice', PASSWORD, { method: 'password' });
      await other.post('/login', {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        request: hiddenField(page.html, 'request'),
        method: 'recovery_code',
        code,
      });
    }
    metrics = await (await fetch(`${server.url}/metrics`)).text();
  });
  after(() => server.close());

  it('the TOTP secret and the recovery codes are in no file of the store (sealed, and digests)', () => {
    const files = dataFiles(server.dataDir);
    assert.deepEqual(filesContaining(files, secret), [], 'the base32 secret');
    for (const code of codes) {
      assert.deepEqual(filesContaining(files, code), [], `recovery code ${code}`);
      assert.deepEqual(filesContaining(files, code.replaceAll('-', '')), [], `recovery code ${code}, canonical`);
    }
  });

  it('nor in the log at its most verbose level, nor in /metrics', () => {
    const log = lines.join('');
    assert.ok(log.length > 0, 'the log has lines');
    for (const value of [secret, ...codes]) {
      assert.ok(!log.includes(value), `the log holds ${value}`);
      assert.ok(!metrics.includes(value), `/metrics holds ${value}`);
    }
    assert.match(metrics, /gatehouse_sign_in_failures_total\{reason="wrong_recovery_code"\} 1/);
  });
});
