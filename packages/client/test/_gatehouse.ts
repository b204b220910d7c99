import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addUser,
  DEFAULT_RATE_LIMITS,
  issueOperatorGrant,
  registerClient,
  startServer,
  type ClientRegistration,
  type RateLimitPolicies,
  type RunningServer,
} from '@gatehouse/server';
import { startCountingProxy, type CountingProxy } from './_proxy.js';
import { storePremadeSigningKeys } from '../../server/test/_signing-keys.js';
import { shippedApiDefinition } from '../../server/test/_server.js';

export const CALLBACK = 'http://127.0.0.1:8765/callback';
export const PASSWORD = 'correct horse battery staple';

/** The server's clock (epoch seconds): real time plus whatever the test let pass. */
export class TestClock {
  offsetSeconds = 0;
  now(): number {
    return Math.floor(Date.now() / 1000) + this.offsetSeconds;
  }
  /** The same time for the SDK, in epoch milliseconds. */
  nowMs = (): number => Date.now() + this.offsetSeconds * 1000;
  advance(seconds: number): void {
    this.offsetSeconds += seconds;
  }
}

export interface Gatehouse {
  /** The issuer: the counting proxy in front of the server. */
  readonly issuer: string;
  /** The REST API's base URL. */
  readonly apiBase: string;
  readonly server: RunningServer;
  readonly proxy: CountingProxy;
  readonly clock: TestClock;
  addClient(registration: Partial<ClientRegistration> & { id: string }): Promise<{ id: string; secret: string | null }>;
  addUser(username?: string, password?: string): Promise<void>;
  issueGrant(
    clientId: string,
    scope?: readonly string[],
  ): Promise<{
    access_token: string;
    token_type: string;
    expires_in: number;
    refresh_token?: string;
    scope: string;
    grant_id: string;
  }>;
  /** A grant's rotation count and revocation, read from the store. */
  grant(id: string): Promise<{ rotationCount: number; revokedAt: number | null }>;
  /** What `gatehouse grants revoke` does. */
  revokeGrant(id: string): Promise<void>;
  close(): Promise<void>;
}

/** Gatehouse on a fresh SQLite file, behind a counting proxy whose URL is the issuer; the default rate limits unless given others. */
export async function startGatehouse({
  rateLimits,
  dpopNonces,
}: { rateLimits?: Partial<RateLimitPolicies>; dpopNonces?: boolean } = {}): Promise<Gatehouse> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-client-test-'));
  const clock = new TestClock();
  const proxy = await startCountingProxy();
  const databaseUrl = `sqlite:${join(dataDir, 'gatehouse.db')}`;
  // Keys made once, as the server's tests start (server/test/_signing-keys.ts).
  await storePremadeSigningKeys(databaseUrl, clock.now());
  const server = await startServer({
    databaseUrl,
    issuer: proxy.url,
    port: 0,
    host: '127.0.0.1',
    clock,
    // Loaded once per process, as the server's tests do.
    api: shippedApiDefinition(),
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...rateLimits },
    rateLimitClock: clock.nowMs,
    dpopNonces,
    // Test passwords are hashed at scrypt N = 2^10, as in the server's tests (test/_password-cost.ts).
    passwordHashCost: 10,
  });
  proxy.target = server.url;
  const { store } = server.context;
  return {
    issuer: proxy.url,
    apiBase: `${proxy.url}/v2`,
    server,
    proxy,
    clock,
    async addClient(registration) {
      const { client, secret } = await registerClient(
        store,
        {
          name: registration.id,
          scope: ['contacts:read', 'contacts:write'],
          redirectUris: [CALLBACK],
          ...registration,
        },
        clock.now(),
      );
      return { id: client.id, secret };
    },
    async addUser(username = 'alice', password = PASSWORD) {
      await addUser(store, username, password, clock.now());
    },
    async issueGrant(clientId, scope = ['contacts:read', 'contacts:write']) {
      // A grant is a user's: alice is made first when the test has not.
      if (!(await store.findUser('alice'))) await addUser(store, 'alice', PASSWORD, clock.now());
      return issueOperatorGrant(server.context, clientId, 'alice', scope);
    },
    async grant(id) {
      const grant = await store.findGrant(id);
      if (!grant) throw new Error(`no grant ${id}`);
      return grant;
    },
    async revokeGrant(id) {
      await store.revokeGrant(id, 'revoked_by_admin', clock.now());
    },
    async close() {
      await server.close();
      await proxy.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The `grant_id` claim of a Gatehouse access token (a JWT). */
export function grantIdOf(accessToken: string): string {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    grant_id?: string;
  };
  if (payload.grant_id === undefined) throw new Error('the access token names no grant');
  return payload.grant_id;
}
