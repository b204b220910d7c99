import { createServer } from 'node:net';

/**
 * Why `serve` cannot listen, said so that an operator knows what to change: the bare Node error
 * (`listen EADDRINUSE: address already in use 127.0.0.1:3000`) names neither the variable to set
 * nor what may hold the port. Undefined for any other error.
 */
export function listenErrorHint(error: unknown, host: string, port: number): Error | undefined {
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'EADDRINUSE':
      return new Error(
        `port ${port} on ${host} is already in use (another Gatehouse, npm start or other program listens there): ` +
          `stop it, or choose another port with PORT, e.g. PORT=${port === 65535 ? port - 1 : port + 1} npm start`,
      );
    case 'EACCES':
      return new Error(`port ${port} is reserved for privileged programs here: choose one above 1023 with PORT`);
    case 'EADDRNOTAVAIL':
      return new Error(`HOST ${host} is not an address of this machine: set HOST to one (0.0.0.0: every interface)`);
    default:
      return undefined;
  }
}

/**
 * Listens on `host`:`port` for a moment and stops, so that `serve` says at once, before it opens
 * the store or starts workers, that it could not listen there. Node listens with SO_REUSEADDR, so
 * the port is free again for the server right after. Port 0 (any free port) is not checked.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ port, host, exclusive: true }, resolve);
    });
  } catch (error) {
    throw listenErrorHint(error, host, port) ?? error;
  } finally {
    await new Promise<void>((resolve) => (probe.listening ? probe.close(() => resolve()) : resolve()));
  }
}
