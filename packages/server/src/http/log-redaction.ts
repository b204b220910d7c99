import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { prettyDestination, type LogFormat } from './log-format.js';

type ServerLoggerOptions = NonNullable<Exclude<FastifyServerOptions['logger'], boolean>>;

/**
 * What the request logs may say about a request. Credentials travel in headers and bodies, which
 * are never logged, but careless clients put them in the URL too (an RFC 6750 §2.3 `access_token`
 * query, a token request sent as a query string, a password in a link), and Fastify logs the URL
 * of every request. So the query is logged with the values of a few harmless parameters only.
 */

/** Parameters whose values are never secret: logged as sent. */
const PUBLIC_PARAMETERS: ReadonlySet<string> = new Set([
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'code_challenge_method',
  'grant_type',
  'token_type_hint',
  'error',
  'iss',
  'limit',
  'cursor',
]);

/** Parameters logged by name with the value hidden; any other name is hidden too (it could be a secret itself). */
const KNOWN_PARAMETERS: ReadonlySet<string> = new Set([
  ...PUBLIC_PARAMETERS,
  'code',
  'state',
  'code_challenge',
  'code_verifier',
  'device_code',
  'user_code',
  'refresh_token',
  'access_token',
  'id_token',
  'token',
  'client_secret',
  'client_assertion',
  'client_assertion_type',
  'assertion',
  'password',
  'username',
  'csrf_token',
  'request',
  'decision',
  'error_description',
  'error_uri',
]);

const REDACTED = '[redacted]';

/** The URL with every query value hidden but the harmless ones: `/token?grant_type=refresh_token&refresh_token=[redacted]`. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const pairs = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decodeName(eq < 0 ? pair : pair.slice(0, eq));
      if (name === undefined || !KNOWN_PARAMETERS.has(name)) return pair === '' ? '' : REDACTED;
      return PUBLIC_PARAMETERS.has(name) ? pair : `${name}=${REDACTED}`;
    });
  return `${url.slice(0, mark)}?${pairs.join('&')}`;
}

function decodeName(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Fastify's request serializer (the same fields), with the URL redacted. */
function requestLogSerializer(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The logger of `gatehouse serve`: pino at `level`, URLs redacted, credential headers removed; JSON
 * lines, or with `pretty` one readable line an event, colored on a terminal (unless NO_COLOR).
 */
export function serverLoggerOptions(
  level: string,
  format: LogFormat = 'json',
  out: NodeJS.WriteStream = process.stdout,
): ServerLoggerOptions {
  const color = out.isTTY === true && !process.env.NO_COLOR;
  return {
    level,
    serializers: { req: requestLogSerializer },
    // Not serialised by the above; kept in case a log line ever carries the headers.
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    // Fastify hands `stream` to pino as its destination; the pretty form is made from the redacted line.
    ...(format === 'pretty' ? { stream: prettyDestination(out, color) } : {}),
  };
}
