import type { FastifyRequest } from 'fastify';
import { auditEventJson, type AuditSink } from '../audit/audit.js';

/** Logs audit events on the request's logger (with its request id), at warn level, and counts them. */
export function auditLogOf(request: FastifyRequest): AuditSink {
  return (event) => {
    request.server.metrics?.countAuditEvent(event.event);
    request.log.warn({ audit: auditEventJson(event) }, `audit: ${event.event}`);
  };
}
