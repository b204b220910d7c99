import type { FastifyBaseLogger } from 'fastify';
import { auditEventJson, type AuditSink } from '../audit/audit.js';

/**
 * The server's audit sink, given once to the audit trail (audit/audit.ts): every event the server
 * records becomes one line at warn, `{"audit": {...}, "msg": "audit: <event>"}`, on the server's
 * root logger (nothing when the server logs nothing). The line has no request id: the event names
 * its client, subject, address and time, and following each request through an async context to
 * find its logger would cost every request of the process (async hooks on every promise).
 * Counting is the trail's own (`gatehouse_audit_events_total`, http/metrics.ts).
 */
export function auditLog(log: FastifyBaseLogger | undefined): AuditSink {
  return (event) => {
    log?.warn({ audit: auditEventJson(event) }, `audit: ${event.event}`);
  };
}
