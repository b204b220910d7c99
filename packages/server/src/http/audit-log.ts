import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { auditEventJson, type AuditSink } from '../audit/audit.js';

/** The logger of the request being served, so that an event is logged with its request id. */
const requestLogs = new AsyncLocalStorage<FastifyBaseLogger>();

/**
 * The server's audit sink, given once to the audit trail (audit/audit.ts): every event the server
 * records becomes one line at warn, `{"audit": {...}, "msg": "audit: <event>"}`, on the logger of
 * the request that recorded it (with its `reqId`), else on `log` (nothing when the server logs
 * nothing). Counting is the trail's own (`gatehouse_audit_events_total`, http/metrics.ts).
 */
export function auditLog(log: FastifyBaseLogger | undefined): AuditSink {
  return (event) => {
    (requestLogs.getStore() ?? log)?.warn({ audit: auditEventJson(event) }, `audit: ${event.event}`);
  };
}

/**
 * Runs every route's validation, hooks and handler within its request's logger, for `auditLog`.
 * Entered once the body is read: the body stream's events would run outside the context.
 */
export function logAuditEventsPerRequest(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    requestLogs.run(request.log, done);
  });
}
