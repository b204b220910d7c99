import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { forget, runInGroup, track } from './_processes.js';

/**
 * PostgreSQL clusters of the test's own, in a temporary folder on a free port: the outage and
 * failover tests terminate backends and stop servers, which must never touch the shared server on
 * 5432 that other suites use. The machine's PostgreSQL 15 binaries (POSTGRES_BIN to override); as
 * root, initdb refuses to run, so the clusters run as the `postgres` user.
 */
export const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

/** Why the clusters cannot be made here, or undefined. Under CI=true the suites fail instead of skipping. */
export function clusterUnavailable(): string | undefined {
  if (!existsSync(join(POSTGRES_BIN, 'initdb'))) return `no PostgreSQL binaries in ${POSTGRES_BIN}`;
  return undefined;
}

const asRoot = process.getuid?.() === 0;

async function pgBin(name: string, args: string[]): Promise<string> {
  const bin = join(POSTGRES_BIN, name);
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  // pg_ctl start leaves the postmaster in a session of its own (setsid): ending pg_ctl's group spares it.
  const ran = await runInGroup(file, argv, { timeoutMs: 60_000 });
  if (ran.code !== 0) throw new Error(`${name} ${args.join(' ')} failed (${ran.code}): ${ran.err}${ran.out}`);
  return ran.out;
}

/** The kernel's ephemeral range, where connect() picks its local ports and listen(0) its own. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high) return [low, high];
  } catch {
    // Not Linux: the IANA dynamic range.
  }
  return [49152, 65535];
}

const handedOut = new Set<number>();

/**
 * A free port of 127.0.0.1 for a program started later, chosen below the ephemeral range: a port
 * from listen(0) lies in that range, and any outgoing connection of the machine may take it as its
 * local port before the program binds it (Patroni's second node binds its REST API a minute after
 * the ports are chosen, and once found its port held). Below the range only another listener can
 * hold it, which the probe sees.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const low = Math.min(20_000, ephemeralLow - 1_000);
  for (;;) {
    const port = low + Math.floor(Math.random() * (ephemeralLow - low));
    if (handedOut.has(port)) continue;
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    await new Promise((resolve) => server.close(resolve));
    handedOut.add(port);
    return port;
  }
}

export interface Cluster {
  readonly port: number;
  readonly dir: string;
  /** `127.0.0.1:port`, for a host list. */
  readonly host: string;
  /** A URL of the `postgres` database as the `postgres` user (trust authentication). */
  readonly url: string;
  start(): Promise<void>;
  /** `pg_ctl stop`: `fast` rolls back and disconnects; `immediate` is a crash. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  promote(): Promise<void>;
  /** Terminates every client backend but the caller's; resolves with how many were terminated. */
  terminateBackends(): Promise<number>;
  query<R extends pg.QueryResultRow>(text: string): Promise<R[]>;
  /** Stops the server (if running) and removes its folder. */
  destroy(): Promise<void>;
}

// Fast to set up and tear down; the failover test needs durability on the standby only against a
// primary's crash (not the machine's), which synchronous replication gives without fsync.
const SETTINGS = ['-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'max_connections=100'];

function cluster(dir: string, port: number, extra: string[] = []): Cluster {
  const data = join(dir, 'data');
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let postmaster: number | undefined;
  const options = ['-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', ...SETTINGS, ...extra].join(' ');
  const self: Cluster = {
    port,
    dir,
    host: `127.0.0.1:${port}`,
    url,
    async start() {
      await pgBin('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '30', 'start']);
      postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      // Its own process group: killed with it should the test process end without stopping it.
      track(postmaster, 'postgres', ['-D', data]);
    },
    async stop(mode = 'fast') {
      await pgBin('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
      if (postmaster !== undefined) forget(postmaster);
    },
    async promote() {
      await pgBin('pg_ctl', ['-D', data, '-w', '-t', '30', 'promote']);
    },
    async terminateBackends() {
      const rows = await self.query<{ n: string }>(
        `select count(pg_terminate_backend(pid)) as n from pg_stat_activity
          where backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      return Number(rows[0]?.n ?? 0);
    },
    async query<R extends pg.QueryResultRow>(text: string) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      client.on('error', () => {});
      await client.connect();
      try {
        return (await client.query<R>(text)).rows;
      } finally {
        await client.end();
      }
    },
    async destroy() {
      await self.stop('immediate').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return self;
}

/** The `postgres` user's uid and gid, when running as root: the clusters' folders are theirs. */
let postgresIds: [number, number] | undefined;

/** A new temporary folder, the `postgres` user's when running as root. */
export async function tempFolder(prefix = 'gatehouse-pg-'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (asRoot) {
    if (!postgresIds) {
      const [uid, gid] = await Promise.all([
        runInGroup('id', ['-u', 'postgres']),
        runInGroup('id', ['-g', 'postgres']),
      ]);
      postgresIds = [Number(uid.out.trim()), Number(gid.out.trim())];
    }
    chownSync(dir, ...postgresIds);
  }
  return dir;
}

/** A new, started cluster. `extra` are server settings (`-c name=value`) of this cluster only. */
export async function initCluster(extra: string[] = []): Promise<Cluster> {
  const dir = await tempFolder();
  await pgBin('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const c = cluster(dir, await freePort(), extra);
  await c.start();
  return c;
}

/** A started streaming standby of `primary`, known to it as `name` (for synchronous_standby_names). */
export async function initStandby(primary: Cluster, name: string): Promise<Cluster> {
  const dir = await tempFolder();
  const data = join(dir, 'data');
  await pgBin('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', data, '-R']);
  const conninfo = `host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}`;
  appendFileSync(join(data, 'postgresql.auto.conf'), `primary_conninfo = '${conninfo}'\n`);
  const c = cluster(dir, await freePort());
  await c.start();
  return c;
}

/**
 * The last step of a switchover: a former primary, stopped, is made a streaming standby of the new
 * `primary` and started again on its own port. Its data folder is cloned anew from the new primary
 * (what Patroni or pg_auto_failover do when pg_rewind is not set up): its shutdown checkpoint, written
 * after the promotion, is not in the new primary's history.
 */
export async function rebuildAsStandby(former: Cluster, primary: Cluster, name: string): Promise<void> {
  const data = join(former.dir, 'data');
  rmSync(data, { recursive: true, force: true });
  const source = ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'];
  await pgBin('pg_basebackup', [...source, '-D', data, '-R', '--checkpoint', 'fast']);
  const conninfo = `host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}`;
  appendFileSync(join(data, 'postgresql.auto.conf'), `primary_conninfo = '${conninfo}'\n`);
  await former.start();
}
