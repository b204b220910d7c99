import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addUser, issueOperatorGrant, registerClient, startServer, type RunningServer } from '@gatehouse/server';
import { runInGroup } from '../../server/test/_processes.js';
import { storePremadeSigningKeys } from '../../server/test/_signing-keys.js';

const CLI = fileURLToPath(new URL('../../server/src/cli/main.ts', import.meta.url));

export interface Gatehouse {
  readonly issuer: string;
  readonly server: RunningServer;
  /** A confidential client allowed client_credentials with `scope`. */
  addClient(id: string, scope: readonly string[], resourceServer?: boolean): Promise<{ id: string; secret: string }>;
  /** An access token from the client-credentials grant (RFC 6749 §4.4). */
  clientCredentialsToken(client: { id: string; secret: string }, scope: string): Promise<string>;
  /** A grant for a user, as `gatehouse grants issue` makes one: its access token names the grant. */
  issueGrant(clientId: string, scope: readonly string[]): Promise<{ access_token: string; grant_id: string }>;
  /** The `gatehouse` operator CLI on this server's database. */
  cli(...argv: string[]): Promise<string>;
  close(): Promise<void>;
}

/** The REST API document shipped at the repository root. */
export const SHIPPED_OPENAPI = fileURLToPath(new URL('../../../openapi.yaml', import.meta.url));

/** A real Gatehouse on a fresh SQLite file, listening on 127.0.0.1, its URL the issuer; `api` serves a REST API. */
export async function startGatehouse({ api }: { api?: string } = {}): Promise<Gatehouse> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-rs-test-'));
  const databaseUrl = `sqlite:${join(dataDir, 'gatehouse.db')}`;
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  // Keys made once, as the server's tests start (server/test/_signing-keys.ts).
  await storePremadeSigningKeys(databaseUrl, Math.floor(Date.now() / 1000));
  // Test passwords are hashed at scrypt N = 2^10, as in the server's tests (test/_password-cost.ts).
  const server = await startServer({
    databaseUrl,
    issuer,
    port,
    host: '127.0.0.1',
    passwordHashCost: 10,
    ...(api ? { api } : {}),
  });
  const { store } = server.context;
  const now = () => Math.floor(Date.now() / 1000);
  return {
    issuer,
    server,
    async addClient(id, scope, resourceServer = false) {
      const { secret } = await registerClient(
        store,
        { id, name: id, scope, grantTypes: ['client_credentials'], resourceServer },
        now(),
      );
      if (secret === null) throw new Error('a confidential client has a secret');
      return { id, secret };
    },
    async clientCredentialsToken(client, scope) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
      });
      const body = (await response.json()) as { access_token?: string };
      if (response.status !== 200 || !body.access_token) throw new Error(`token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async issueGrant(clientId, scope) {
      // A grant is a user's (service accounts are clients): alice is made at the first grant.
      if (!(await store.findUser('alice'))) await addUser(store, 'alice', 'correct horse battery staple', now());
      return issueOperatorGrant(server.context, clientId, 'alice', scope);
    },
    async cli(...argv) {
      const ran = await runInGroup(
        process.execPath,
        ['--import', 'tsx', '--conditions=@gatehouse/source', CLI, ...argv],
        {
          env: { ...process.env, DATABASE_URL: databaseUrl, ISSUER: issuer },
        },
      );
      if (ran.code !== 0) throw new Error(`gatehouse ${argv.join(' ')} failed (${ran.code}): ${ran.err}`);
      return ran.out;
    },
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}
