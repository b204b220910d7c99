import type { ServerConfig } from '../config.js';
import type { ServerContext } from '../context.js';
import { createContext } from '../server.js';
import { openStore } from '../store/open.js';

/** Opens the configured store for one command and closes it afterwards. */
export async function withContext<T>(config: ServerConfig, work: (context: ServerContext) => Promise<T>): Promise<T> {
  const store = await openStore(config.databaseUrl);
  try {
    return await work(await createContext(store, config.issuer));
  } finally {
    await store.close();
  }
}
