/**
 * How the server's log reads: pino's JSON lines, one object a line, for files, pipes and log
 * collectors; or, on a terminal, one readable line an event (time, level, request, message, the
 * other fields as key=value). The readable form is made from the JSON line pino wrote, after its
 * serializers and redaction, so it can say nothing the JSON would not.
 */

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** LOG_FORMAT: `json` or `pretty`; unset, pretty on a terminal and JSON anywhere else. */
export function logFormatFrom(value: string | undefined, onTerminal: boolean): LogFormat {
  if (value === undefined || value === '') return onTerminal ? 'pretty' : 'json';
  const format = LOG_FORMATS.find((f) => f === value);
  if (format === undefined) throw new Error(`LOG_FORMAT must be json or pretty, got ${JSON.stringify(value)}`);
  return format;
}

const LEVELS: Readonly<Record<number, readonly [name: string, color: string]>> = {
  10: ['TRACE', '90'],
  20: ['DEBUG', '36'],
  30: ['INFO', '32'],
  40: ['WARN', '33'],
  50: ['ERROR', '31'],
  60: ['FATAL', '35'],
};

/** Fields every line has, or that the line shows in its own place. */
const SHOWN_APART = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'reqId', 'req', 'res', 'responseTime', 'err']);

const paint = (text: string, code: string, color: boolean): string => (color ? `\x1b[${code}m${text}\x1b[0m` : text);

function clockTime(time: unknown): string {
  const at = typeof time === 'number' ? new Date(time) : new Date();
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}.${String(at.getMilliseconds()).padStart(3, '0')}`;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** Fastify's request and response fields: `GET /token?… 200 3.1 ms`. */
function requestPart(entry: Record<string, unknown>): string[] {
  const req = entry.req as { method?: unknown; url?: unknown; remoteAddress?: unknown } | undefined;
  const res = entry.res as { statusCode?: unknown } | undefined;
  const parts: string[] = [];
  if (req)
    parts.push(
      `${text(req.method)} ${text(req.url)}`,
      ...(req.remoteAddress ? [`from ${text(req.remoteAddress)}`] : []),
    );
  if (res?.statusCode !== undefined) parts.push(`→ ${text(res.statusCode)}`);
  if (typeof entry.responseTime === 'number') parts.push(`${entry.responseTime.toFixed(1)} ms`);
  return parts;
}

/** An error's type, message and stack, indented under its line. */
function errorPart(err: unknown): string {
  if (err === undefined || err === null) return '';
  const e = err as { type?: unknown; message?: unknown; stack?: unknown };
  const stack = typeof e.stack === 'string' ? e.stack : `${text(e.type ?? 'Error')}: ${text(e.message)}`;
  return `\n${stack
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')}`;
}

/** One JSON log line as a readable line; anything that is not a JSON object is passed on as it is. */
export function prettyLine(json: string, color: boolean): string {
  let entry: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return `${json}\n`;
    entry = parsed as Record<string, unknown>;
  } catch {
    return `${json}\n`;
  }
  const [name, code] = LEVELS[entry.level as number] ?? [text(entry.level).toUpperCase(), '0'];
  const fields = Object.entries(entry)
    .filter(([key]) => !SHOWN_APART.has(key))
    .map(([key, value]) => `${paint(key, '90', color)}=${text(value)}`);
  const parts = [
    paint(clockTime(entry.time), '90', color),
    paint(name.padEnd(5), code, color),
    ...(entry.reqId === undefined ? [] : [paint(`[${text(entry.reqId)}]`, '90', color)]),
    ...(entry.msg === undefined ? [] : [text(entry.msg)]),
    ...requestPart(entry),
    ...fields,
  ];
  return `${parts.join(' ')}${errorPart(entry.err)}\n`;
}

/** A pino destination writing each line readably to `out`; colors only when asked (a terminal). */
export function prettyDestination(
  out: { write(text: string): unknown },
  color: boolean,
): { write(chunk: string): void } {
  return {
    write(chunk: string): void {
      for (const line of chunk.split('\n')) if (line !== '') out.write(prettyLine(line, color));
    },
  };
}
