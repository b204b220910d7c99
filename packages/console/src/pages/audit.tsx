import { useState } from 'preact/hooks';
import type { AdminApi, Page, Problem } from '../admin.js';
import type { ConsoleText } from '../i18n/index.js';
import { useText } from '../text.js';
import { CursorTable, useCursorList, withCursor, type Column } from './list.js';
import { ProblemNotice, problemOf } from './problem.js';

/** One event as the admin API answers it (GET /audit-events). */
export interface AuditEvent {
  readonly id: string;
  readonly at: string;
  readonly event: string;
  readonly actor?: string | null;
  readonly client_id: string | null;
  readonly subject: string | null;
  readonly reason: string | null;
}

/** The columns of a table of audit events; the reason is the server's own words, in English. */
export function auditColumns({ t, locale }: ConsoleText, { actor }: { actor: boolean }): readonly Column<AuditEvent>[] {
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
  return [
    { header: t('table.when'), cell: (e) => <time dateTime={e.at}>{time.format(new Date(e.at))}</time> },
    { header: t('table.event'), cell: (e) => <code>{e.event}</code> },
    ...(actor ? [{ header: t('table.actor'), cell: (e: AuditEvent) => e.actor ?? '—' }] : []),
    { header: t('table.client'), cell: (e) => e.client_id ?? '—' },
    { header: t('table.subject'), cell: (e) => e.subject ?? '—' },
    { header: t('table.reason'), cell: (e) => e.reason ?? '—', lang: 'en' },
  ];
}

/** What the operator filters by: the admin API's own query parameters. */
interface Filters {
  readonly event: string;
  readonly actor: string;
  /** A day (YYYY-MM-DD), from its start in UTC. */
  readonly since: string;
}

const PAGE_SIZE = 50;
/** The largest page the admin API answers, used for the export. */
const EXPORT_PAGE_SIZE = 100;
const NO_FILTERS: Filters = { event: '', actor: '', since: '' };

function queryOf(filters: Filters, limit: number): URLSearchParams {
  const query = new URLSearchParams({ limit: String(limit) });
  if (filters.event !== '') query.set('event', filters.event);
  if (filters.actor !== '') query.set('actor', filters.actor);
  if (filters.since !== '') query.set('since', `${filters.since}T00:00:00Z`);
  return query;
}

/**
 * Every event the filters keep, page after page, as JSON lines (one JSON object a line, each the
 * admin API's own): what an operator hands to another tool.
 */
async function exportLines(api: AdminApi, filters: Filters): Promise<{ text: string; count: number }> {
  const lines: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.get<Page<AuditEvent>>(
      `/audit-events?${withCursor(queryOf(filters, EXPORT_PAGE_SIZE), cursor)}`,
    );
    for (const event of page.items) lines.push(JSON.stringify(event));
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return { text: lines.map((line) => `${line}\n`).join(''), count: lines.length };
}

/** The browser saves `text` as a file (an object URL: no request leaves the page). */
function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/jsonl' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The audit trail: filtered by event, actor and day in the store, a page at a time, exported as JSON lines. */
export function Audit({ api, onForbidden }: { readonly api: AdminApi; readonly onForbidden: (e: unknown) => boolean }) {
  const text = useText();
  const { t } = text;
  const [form, setForm] = useState<Filters>(NO_FILTERS);
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [exported, setExported] = useState<number | undefined>();
  const query = queryOf(applied, PAGE_SIZE);
  const list = useCursorList<AuditEvent>(
    (cursor) => api.get(`/audit-events?${withCursor(query, cursor)}`),
    onForbidden,
    query.toString(),
  );

  const submit = (event: Event) => {
    event.preventDefault();
    list.first();
    setExported(undefined);
    setApplied({ event: form.event.trim(), actor: form.actor.trim(), since: form.since });
  };
  const exportAll = () => {
    setProblem(undefined);
    setExported(undefined);
    exportLines(api, applied)
      .then(({ text, count }) => {
        download(text, 'gatehouse-audit.jsonl');
        setExported(count);
      })
      .catch((error: unknown) => setProblem(problemOf(error)));
  };

  return (
    <>
      <h1>{t('audit.title')}</h1>
      <form class="filters" role="search" onSubmit={submit}>
        <div class="field">
          <label for="audit-event">{t('table.event')}</label>
          <input
            id="audit-event"
            type="text"
            spellcheck={false}
            autoComplete="off"
            value={form.event}
            onInput={(e) => setForm({ ...form, event: e.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="audit-actor">{t('table.actor')}</label>
          <input
            id="audit-actor"
            type="text"
            spellcheck={false}
            autoComplete="off"
            value={form.actor}
            onInput={(e) => setForm({ ...form, actor: e.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="audit-since">{t('audit.since')}</label>
          <input
            id="audit-since"
            type="date"
            value={form.since}
            onInput={(e) => setForm({ ...form, since: e.currentTarget.value })}
          />
        </div>
        <button type="submit" class="button primary">
          {t('users.apply')}
        </button>
      </form>
      {problem === undefined ? null : <ProblemNotice problem={problem} />}
      <CursorTable
        id="audit"
        caption={t('audit.caption')}
        columns={auditColumns(text, { actor: true })}
        list={list}
        rowKey={(e) => e.id}
        empty={t('audit.none')}
      >
        <button type="button" class="button secondary" onClick={exportAll}>
          {t('audit.export')}
        </button>
      </CursorTable>
      {exported === undefined ? null : <p role="status">{t('audit.exported', { count: exported })}</p>}
    </>
  );
}
