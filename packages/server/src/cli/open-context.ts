import type { ServerConfig } from '../config.js';
import type { ServerContext } from '../context.js';
import { servedIssuer } from '../oauth/served-issuer.js';
import { systemClock, type Clock } from '../primitives/clock.js';
import { createContext } from '../server.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/store.js';

/**
 * Opens the configured store for one command that signs (tokens), with the keys, and closes it
 * afterwards. The issuer is ISSUER when set, else the one the server last ran with (see
 * oauth/served-issuer.ts). A missing SQLite file is an error: only `serve` and `migrate` create one.
 */
export async function withContext<T>(config: ServerConfig, work: (context: ServerContext) => Promise<T>): Promise<T> {
  const store = await openStore(config.databaseUrl, { create: false });
  try {
    const issuer = config.issuerConfigured ? config.issuer : ((await servedIssuer(store)) ?? config.issuer);
    return await work(await createContext(store, issuer, { keyEncryptionKey: config.keyEncryptionKey }));
  } finally {
    await store.close();
  }
}

/**
 * Opens the configured store for one command that signs nothing: the signing keys are not loaded,
 * so it needs no KEY_ENCRYPTION_KEY. A missing SQLite file is an error.
 */
export async function withStore<T>(config: ServerConfig, work: (store: Store, clock: Clock) => Promise<T>): Promise<T> {
  const store = await openStore(config.databaseUrl, { create: false });
  try {
    return await work(store, systemClock);
  } finally {
    await store.close();
  }
}
