import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { cursorPosition, pageOf, pageSize } from '../json-api/paging.js';
import { auditEventJson } from '../audit/audit.js';
import type { ServerContext } from '../context.js';
import { AUDIT_EVENT_NAMES, type AuditEventName } from '../store/audit-repository.js';
import type { AdminAccess } from './caller.js';
import { queryTime, queryValue, type Query } from './query.js';

/** /audit-events: the audit trail, oldest first, filtered by event, actor and time, in pages. */
export function auditRoutes(app: FastifyInstance, { store }: ServerContext, access: AdminAccess): void {
  app.get<{ Querystring: Query }>('/audit-events', { config: access.read }, async (request) => {
    const { query } = request;
    const event = queryValue(query, 'event');
    if (event !== undefined && !(AUDIT_EVENT_NAMES as readonly string[]).includes(event))
      throw new ProblemError('invalid_parameter', `event must be one of ${AUDIT_EVENT_NAMES.join(', ')}.`);
    const limit = pageSize(query.limit);
    const rows = await store.listAuditEventsPage({
      event: event as AuditEventName | undefined,
      actor: queryValue(query, 'actor'),
      since: queryTime(query, 'since'),
      until: queryTime(query, 'until'),
      after: cursorPosition(query.cursor, (id) => /^[0-9a-z]{12,}$/.test(id)),
      limit: limit + 1,
    });
    return pageOf(
      rows,
      limit,
      (e) => e.id,
      (e) => ({ ...auditEventJson(e), actor: e.actor }),
    );
  });
}
