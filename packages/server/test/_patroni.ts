import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, POSTGRES_BIN, tempFolder } from './_pg-cluster.js';
import { runInGroup, spawnGroup, type ProcessGroup } from './_processes.js';

/**
 * A Patroni-managed PostgreSQL pair of the test's own (Debian's `patroni` and `etcd-server`): one
 * etcd, two Patroni nodes with synchronous replication, all on free ports of 127.0.0.1 in a
 * temporary folder, trust authentication. As root, everything runs as the `postgres` user (initdb
 * refuses root), like the clusters of _pg-cluster.ts.
 */
export const PATRONI_BIN = process.env.PATRONI_BIN ?? '/usr/bin/patroni';
export const PATRONICTL_BIN = process.env.PATRONICTL_BIN ?? '/usr/bin/patronictl';
export const ETCD_BIN = process.env.ETCD_BIN ?? '/usr/bin/etcd';

const asRoot = process.getuid?.() === 0;

/** Why a Patroni pair cannot be made here, or undefined. Under CI=true the suites fail instead of skipping. */
export function patroniUnavailable(): string | undefined {
  for (const bin of [PATRONI_BIN, PATRONICTL_BIN, ETCD_BIN, join(POSTGRES_BIN, 'initdb')])
    if (!existsSync(bin)) return `no ${bin} (Debian: apt-get install patroni etcd-server postgresql-15)`;
  return undefined;
}

export interface PatroniMember {
  readonly name: string;
  readonly role: string;
  readonly state: string;
  readonly host: string;
  readonly port: number;
}

export interface PatroniPair {
  /** `127.0.0.1:port` of node1's and node2's PostgreSQL, in that order. */
  readonly hosts: readonly [string, string];
  /** The members as Patroni's REST API reports them (`GET /cluster`). */
  members(): Promise<PatroniMember[]>;
  /** Resolves once a leader and a synchronous standby are both running, with the leader's name. */
  waitUntilHealthy(timeoutMs?: number): Promise<string>;
  /** `patronictl switchover` from the leader to the other node; resolves when patronictl returns. */
  switchover(leader: string, candidate: string): Promise<void>;
  /** Everything the processes wrote so far. */
  output(): string;
  destroy(): Promise<void>;
}

function nodeConfig(dir: string, name: string, etcd: number, rest: number, pg: number): string {
  return `scope: gatehouse
name: ${name}
restapi:
  listen: 127.0.0.1:${rest}
  connect_address: 127.0.0.1:${rest}
etcd3:
  hosts: 127.0.0.1:${etcd}
bootstrap:
  dcs:
    ttl: 20
    loop_wait: 1
    retry_timeout: 5
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      parameters:
        wal_log_hints: 'on'
        fsync: 'off'
        full_page_writes: 'on'
        max_connections: 100
  initdb:
    - encoding: UTF8
    - auth: trust
  pg_hba:
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
    - local all all trust
postgresql:
  listen: 127.0.0.1:${pg}
  connect_address: 127.0.0.1:${pg}
  data_dir: ${join(dir, `${name}-data`)}
  bin_dir: ${POSTGRES_BIN}
  pgpass: ${join(dir, `${name}.pgpass`)}
  authentication:
    replication:
      username: postgres
    superuser:
      username: postgres
  parameters:
    unix_socket_directories: ${dir}
`;
}

export async function startPatroniPair(): Promise<PatroniPair> {
  const dir = await tempFolder('gatehouse-patroni-');
  const [etcdClient, etcdPeer, rest1, rest2, pg1, pg2] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ] as [number, number, number, number, number, number];
  const children: ProcessGroup[] = [];
  let output = '';
  const start = (bin: string, args: string[]): ProcessGroup => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
    const group = spawnGroup(file, argv);
    children.push(group);
    return group;
  };
  const peer = `http://127.0.0.1:${etcdPeer}`;
  const client = `http://127.0.0.1:${etcdClient}`;
  start(ETCD_BIN, [
    '--name=gatehouse',
    `--data-dir=${join(dir, 'etcd')}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=gatehouse=${peer}`,
  ]);
  const configs = [
    ['node1', rest1, pg1],
    ['node2', rest2, pg2],
  ] as const;
  for (const [name, rest, pg] of configs)
    writeFileSync(join(dir, `${name}.yml`), nodeConfig(dir, name, etcdClient, rest, pg));

  const self: PatroniPair = {
    hosts: [`127.0.0.1:${pg1}`, `127.0.0.1:${pg2}`],
    async members() {
      for (const rest of [rest1, rest2]) {
        try {
          const response = await fetch(`http://127.0.0.1:${rest}/cluster`, { signal: AbortSignal.timeout(2000) });
          if (response.ok) return ((await response.json()) as { members: PatroniMember[] }).members;
        } catch {
          // That node's API is down (it restarts its PostgreSQL, or has not started): ask the other.
        }
      }
      return [];
    },
    async waitUntilHealthy(timeoutMs = 60_000) {
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(250)) {
        const members = await self.members();
        const leader = members.find((m) => m.role === 'leader' && m.state === 'running');
        const standby = members.find((m) => m.role === 'sync_standby' && m.state === 'running');
        if (leader && standby) return leader.name;
      }
      throw new Error(`no running leader and synchronous standby within ${timeoutMs} ms:
${JSON.stringify(await self.members())}
${self.output().slice(-3000)}`);
    },
    async switchover(leader, candidate) {
      const args = [
        '-c',
        join(dir, `${leader}.yml`),
        'switchover',
        '--leader',
        leader,
        '--candidate',
        candidate,
        '--force',
      ];
      const [file, argv] = asRoot
        ? ['runuser', ['-u', 'postgres', '--', PATRONICTL_BIN, ...args]]
        : [PATRONICTL_BIN, args];
      const ran = await runInGroup(file, argv, { timeoutMs: 60_000 });
      output += ran.out;
      if (ran.code !== 0) throw new Error(`patronictl switchover failed (${ran.code}): ${ran.out}${ran.err}`);
    },
    output: () =>
      output +
      children.map((group) => group.output()).join('') +
      configs
        .map(([name]) => join(dir, `${name}-data`, 'log'))
        .filter(existsSync)
        .map((file) => readFileSync(file, 'utf8'))
        .join(''),
    async destroy() {
      // Patroni first (each stops its PostgreSQL), then etcd.
      const [etcd, ...nodes] = children;
      // SIGTERM to the leader (runuser passes it on): Patroni then stops its PostgreSQL itself.
      const stop = async (group: ProcessGroup | undefined): Promise<void> =>
        void (await group?.stop({ graceMs: 15_000 }));
      await Promise.all(nodes.map(stop));
      // A PostgreSQL its Patroni left running (stopped in the middle of a restart) is stopped here.
      for (const [name] of configs) {
        const data = join(dir, `${name}-data`);
        if (!existsSync(join(data, 'postmaster.pid'))) continue;
        const args = ['-D', data, '-m', 'immediate', '-w', 'stop'];
        const pgCtl = join(POSTGRES_BIN, 'pg_ctl');
        await runInGroup(
          ...((asRoot ? ['runuser', ['-u', 'postgres', '--', pgCtl, ...args]] : [pgCtl, args]) as [string, string[]]),
          { timeoutMs: 30_000 },
        );
      }
      await stop(etcd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  // node1 bootstraps the cluster (initdb) and leads; node2 then clones it.
  start(PATRONI_BIN, [join(dir, 'node1.yml')]);
  for (const deadline = Date.now() + 60_000; ; await sleep(250)) {
    if ((await self.members()).some((m) => m.role === 'leader' && m.state === 'running')) break;
    if (Date.now() > deadline) {
      await self.destroy();
      throw new Error(`node1 did not lead within 60 s: ${self.output().slice(-3000)}`);
    }
  }
  start(PATRONI_BIN, [join(dir, 'node2.yml')]);
  return self;
}
