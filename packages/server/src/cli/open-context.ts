import type { ServerConfig } from '../config.js';
import type { ServerContext } from '../context.js';
import { createContext } from '../server.js';
import { openStore } from '../store/open.js';
import type { MigrationMode } from '../store/migrations.js';
import type { Store } from '../store/store.js';

/** Opens the configured store for one command and closes it afterwards. */
export async function withContext<T>(
  config: ServerConfig,
  work: (context: ServerContext) => Promise<T>,
  migrations: MigrationMode = 'apply',
): Promise<T> {
  const store = await openStore(config.databaseUrl, { migrations });
  try {
    return await work(await createContext(store, config.issuer, { keyEncryptionKey: config.keyEncryptionKey }));
  } finally {
    await store.close();
  }
}

/** Opens the configured store for one command that needs no keys or tokens. */
export async function withStore<T>(config: ServerConfig, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(config.databaseUrl);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
