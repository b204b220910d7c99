import { AuditTrail, type AuditSink } from '../audit/audit.js';
import type { ServerConfig } from '../config.js';
import type { ServerContext } from '../context.js';
import { servedIssuer } from '../oauth/discovery/index.js';
import { systemClock, type Clock } from '../primitives/clock.js';
import { createContext } from '../server.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/store.js';

/**
 * The CLI's audit sink: the events of its commands (actor `cli`) are stored, like every event,
 * and written nowhere else. The CLI's stdout is the command's answer and its stderr carries only
 * its errors (JSON for a program), so a line per event there would break the scripts that read
 * them; and a CLI process has no metrics. Read its events with `gatehouse audit` or
 * `GET /admin/v1/audit-events?actor=cli`.
 */
export const CLI_AUDIT_SINK: AuditSink = () => {};

/**
 * Opens the configured store for one command that signs (tokens), with the keys, and closes it
 * afterwards. The issuer is ISSUER when set, else the one the server last ran with (see
 * oauth/discovery/served-issuer.ts). A missing SQLite file is an error: only `serve` and `migrate` create one.
 */
export async function withContext<T>(config: ServerConfig, work: (context: ServerContext) => Promise<T>): Promise<T> {
  const store = await openStore(config.databaseUrl, { create: false });
  try {
    const issuer = config.issuerConfigured ? config.issuer : ((await servedIssuer(store)) ?? config.issuer);
    const options = { keyEncryptionKey: config.keyEncryptionKey, auditSink: CLI_AUDIT_SINK };
    return await work(await createContext(store, issuer, options));
  } finally {
    await store.close();
  }
}

/**
 * Opens the configured store for one command that signs nothing: the signing keys are not loaded,
 * so it needs no KEY_ENCRYPTION_KEY. A missing SQLite file is an error. Its changes record their
 * events through `audit`, the one audit trail of the command.
 */
export async function withStore<T>(
  config: ServerConfig,
  work: (store: Store, clock: Clock, audit: AuditTrail) => Promise<T>,
): Promise<T> {
  const store = await openStore(config.databaseUrl, { create: false });
  try {
    return await work(store, systemClock, new AuditTrail(store, CLI_AUDIT_SINK));
  } finally {
    await store.close();
  }
}
