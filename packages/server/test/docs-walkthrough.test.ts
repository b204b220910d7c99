/**
 * docs/getting-started.md's service account, run as a newcomer runs it: its `gatehouse` commands
 * through the CLI with the page's own arguments, its `sed` through the shell, its HTTP calls against
 * a listening server on a fresh database. The answers are the ones the page promises: 403
 * `owner-required` with the shipped document (records are owned), 200 with the document it makes.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/server.js';
import { runCliCaptured } from './_cli.js';
import { freshDatabase } from './_dialects.js';
import { gatehouseCallsIn, sectionOf, shellBlocks } from './_docs.js';
import { ISSUER } from './_oauth-assertions.js';
import { runInGroup } from './_processes.js';
import { basicAuthorization, postForm, SHIPPED_OPENAPI } from './_server.js';

const PAGE = sectionOf('docs/getting-started.md', 'Quick start');
/** The two blocks of the service account: the client and the 403, then the document and the 200. */
const [FIRST, SECOND] = shellBlocks(PAGE).filter((block) => block.includes('reporting'));

describe("docs/getting-started.md's service account, as written", () => {
  let database: { readonly url: string; drop(): Promise<void> };
  let dir: string;
  let server: RunningServer | undefined;
  let secret: string;
  const env = (): NodeJS.ProcessEnv => ({ DATABASE_URL: database.url, ISSUER });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-walkthrough-'));
    copyFileSync(SHIPPED_OPENAPI, join(dir, 'openapi.yaml'));
    database = await freshDatabase('sqlite');
    // As `npm start` serves the project's openapi.yaml.
    server = await startServer({
      databaseUrl: database.url,
      issuer: ISSUER,
      port: 0,
      host: '127.0.0.1',
      api: join(dir, 'openapi.yaml'),
    });
    // A user's contact for the service to read, made as the rest of the page makes them.
    await cli(['users', 'add', '--username', 'ann']);
    await cli(['clients', 'add', '--id', 'app', '--name', 'App', '--scope', 'contacts:read contacts:write']);
    const grant = await cli(['grants', 'issue', '--client', 'app', '--user', 'ann', '--scope', 'contacts:write']);
    const created = await fetch(`${server.url}/v2/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${grant.access_token as string}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com' }),
    });
    assert.equal(created.status, 201);
  });
  after(async () => {
    await server?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function cli(argv: string[]): Promise<Record<string, unknown>> {
    const run = await runCliCaptured(argv, env());
    assert.equal(run.code, 0, `gatehouse ${argv.join(' ')}: ${run.err}`);
    return JSON.parse(run.out) as Record<string, unknown>;
  }

  /** The service account's token, asked for as the page's curl asks (RFC 6749 §4.4). */
  async function serviceToken(running: RunningServer): Promise<string> {
    const answer = await postForm(
      `${running.url}/token`,
      { grant_type: 'client_credentials', scope: 'contacts:read' },
      {
        headers: { authorization: basicAuthorization('reporting', secret) },
      },
    );
    assert.equal(answer.status, 200);
    return ((await answer.json()) as { access_token: string }).access_token;
  }

  const contacts = (running: RunningServer, token: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${running.url}/v2/contacts`, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });

  it('the page registers the client with its own command, and its token is refused with owner-required (403), as the page says', async () => {
    assert.ok(FIRST !== undefined && SECOND !== undefined, 'the page has both blocks');
    const [add] = gatehouseCallsIn(FIRST);
    assert.deepEqual(add?.slice(0, 2), ['clients', 'add']);
    secret = (await cli((add ?? []).map((word) => word.replace(/^"(.*)"$/, '$1')))).client_secret as string;
    assert.match(FIRST, /# 403: \{"type":"\/problems\/owner-required"/);
    const refused = await contacts(server as RunningServer, await serviceToken(server as RunningServer));
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { type: string }).type, '/problems/owner-required');
  });

  it("with the document the page's sed makes, the same client reads every user's contacts (200); a write is still 403", async () => {
    const sed = (SECOND ?? '').split('\n').find((line) => line.startsWith('sed '));
    const served = /^OPENAPI_PATH=(\S+) npm start$/m.exec(SECOND ?? '')?.[1];
    assert.ok(sed !== undefined && served !== undefined, 'the block makes a document and serves it');
    const ran = await runInGroup('sh', ['-c', sed], { cwd: dir });
    assert.equal(ran.code, 0, ran.err);
    await server?.close();
    server = await startServer({
      databaseUrl: database.url,
      issuer: ISSUER,
      port: 0,
      host: '127.0.0.1',
      api: join(dir, served),
    });
    const token = await serviceToken(server);
    const read = await contacts(server, token);
    assert.equal(read.status, 200);
    const page = (await read.json()) as { items: { email: string }[]; next_cursor: string | null };
    assert.deepEqual(
      page.items.map((c) => c.email),
      ['ada@example.com'],
    );
    assert.match(SECOND ?? '', /# 200: \{"items":\[/);
    const write = await contacts(server, token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bob@example.com' }),
    });
    assert.equal(write.status, 403);
    assert.match(SECOND ?? '', /a POST with this token is still 403 owner-required/);
  });
});
