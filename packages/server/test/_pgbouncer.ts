import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort, tempFolder } from './_pg-cluster.js';
import { spawnGroup } from './_processes.js';

/**
 * A PgBouncer of the test's own (Debian's `pgbouncer`, PGBOUNCER_BIN to override) in transaction
 * pooling, on a free port, with its own ini in a temporary folder: every database name is passed
 * through to one PostgreSQL server (`127.0.0.1:5432`, the machine's, or a cluster of the test's),
 * trust authentication as on that server. PgBouncer refuses to run as root, so as root it runs as
 * the `postgres` user, like the clusters.
 */
export const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

/** Why a PgBouncer cannot be started here, or undefined. Under CI=true the suites fail instead of skipping. */
export function pgbouncerUnavailable(): string | undefined {
  if (!existsSync(PGBOUNCER_BIN)) return `no pgbouncer at ${PGBOUNCER_BIN} (Debian: apt-get install pgbouncer)`;
  return undefined;
}

export interface PgBouncer {
  readonly port: number;
  /** A URL of `database` through the pooler, as the `postgres` user. */
  url(database: string): string;
  /** Points every database at another server (`host:port`) and reloads, as a failover hook would. */
  repoint(host: string): Promise<void>;
  /** SHOW <what> on the admin console (POOLS, SERVERS, STATS …). */
  show<R extends pg.QueryResultRow>(what: string): Promise<R[]>;
  /** The pooler's log so far. */
  log(): string;
  destroy(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

function ini(dir: string, port: number, host: string, poolSize: number): string {
  const [address, serverPort] = host.split(':');
  return `[databases]
* = host=${address} port=${serverPort} user=postgres

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, 'users.txt')}
admin_users = postgres
pool_mode = transaction
default_pool_size = ${poolSize}
max_client_conn = 500
server_check_delay = 0
logfile = ${join(dir, 'log')}
pidfile = ${join(dir, 'pid')}
`;
}

export async function startPgBouncer(host: string, { poolSize = 8 } = {}): Promise<PgBouncer> {
  const dir = await tempFolder('gatehouse-pgbouncer-');
  const port = await freePort();
  const iniPath = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
  writeFileSync(iniPath, ini(dir, port, host, poolSize));
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', PGBOUNCER_BIN, iniPath]]
    : [PGBOUNCER_BIN, [iniPath]];
  const group = spawnGroup(file, argv);
  const log = (): string => {
    const file = join(dir, 'log');
    return `${group.output()}${existsSync(file) ? readFileSync(file, 'utf8') : ''}`;
  };
  async function admin<R extends pg.QueryResultRow>(text: string): Promise<R[]> {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/pgbouncer` });
    client.on('error', () => {});
    await client.connect();
    try {
      return (await client.query<R>(text)).rows;
    } finally {
      await client.end();
    }
  }
  for (let i = 0; ; i++) {
    if (group.child.exitCode !== null) throw new Error(`pgbouncer exited with ${group.child.exitCode}: ${log()}`);
    try {
      await admin('SHOW VERSION');
      break;
    } catch (error) {
      if (i > 100) throw new Error(`pgbouncer did not answer within 10 s: ${log()}`, { cause: error });
      await sleep(100);
    }
  }
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async repoint(to) {
      writeFileSync(iniPath, ini(dir, port, to, poolSize));
      await admin('RELOAD');
    },
    show: (what) => admin(`SHOW ${what}`),
    log,
    async destroy() {
      // runuser passes the SIGTERM on to pgbouncer; whatever is left after 5 s goes with the group.
      await group.stop({ graceMs: 5000 });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
