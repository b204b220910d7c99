import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { describeKeys } from '../oauth/keys/index.js';
import type { AdminAccess } from './caller.js';

const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();

/**
 * /overview: what the console's dashboard shows first, in one read. The store's round trip (a store
 * that does not answer makes the request itself fail, 503 service_unavailable), the mail outbox by
 * state with its oldest waiting message, the age of each signing key that signs, and how many users,
 * clients and live grants there are (counted in the store; on PostgreSQL past 10,000 rows, estimated
 * from its statistics, postgres/overview-counts.ts).
 */
export function overviewRoutes(app: FastifyInstance, { store, clock }: ServerContext, access: AdminAccess): void {
  app.get('/overview', { config: access.read }, async () => {
    const now = clock.now();
    const started = performance.now();
    const counts = await store.countOverview(now);
    const roundTripMs = Math.round((performance.now() - started) * 10) / 10;
    const [mail, queue, keys] = await Promise.all([
      store.countMailByState(),
      store.mailQueue(),
      store.listSigningKeys(),
    ]);
    const signing = describeKeys(keys, now).filter((k) => k['status'] === 'signing');
    return {
      checked_at: iso(now),
      store: { reachable: true, round_trip_ms: roundTripMs },
      mail: {
        queued: mail.queued,
        sending: mail.sending,
        sent: mail.sent,
        failed: mail.failed,
        oldest_waiting_at: queue.oldestCreatedMs === null ? null : new Date(queue.oldestCreatedMs).toISOString(),
      },
      signing_keys: signing.map((k) => ({
        kid: k['kid'],
        alg: k['alg'],
        published_at: k['published_at'],
        age_seconds: now - Math.floor(Date.parse(k['published_at'] as string) / 1000),
      })),
      counts: {
        users: counts.users,
        clients: counts.clients,
        live_grants: counts.liveGrants,
        approximate: counts.approximate,
      },
    };
  });
}
