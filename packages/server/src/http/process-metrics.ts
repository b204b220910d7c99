import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

/**
 * prom-client's process and Node.js metrics (CPU, memory, heap, event-loop lag, GC, handles…), on a
 * registry of Gatehouse's own, never prom-client's global one. They describe the process, not one
 * server, so they are collected once per process and every server of the process exposes the same
 * registry: each collection starts an event-loop monitor and a GC observer that cannot be stopped.
 */
export function processRegistry(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
