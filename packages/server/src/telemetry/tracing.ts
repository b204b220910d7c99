import type * as OpenTelemetry from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Tracing with the OpenTelemetry API (docs/deployment.md "Tracing"). Off unless `TRACING` turns it
 * on (telemetry/start.ts): then the OAuth and REST routes, the token grants and the store's
 * transactions run in spans, and an incoming W3C `traceparent` is their parent.
 *
 * What it costs when off: `@opentelemetry/api` is not even loaded (it is imported when tracing is
 * turned on: its load is tens of milliseconds of every start), the routes are registered unwrapped
 * (no hook, no closure), and the grant and the transaction each read one boolean; no span object is
 * made, not even the API's no-op one.
 *
 * No attribute carries a token, a secret, a credential or a record's content: names of things
 * (route, grant type, client id, store dialect), outcomes (status code, error code), nothing a
 * request sent as a value.
 */
let on = false;
let api: typeof OpenTelemetry | undefined;
let tracer: OpenTelemetry.Tracer | undefined;

/** Whether spans are made; set before the routes are registered (telemetry/start.ts). */
export function isTracing(): boolean {
  return on;
}

/** Loads the API and turns spans on. */
export async function enableTracing(): Promise<void> {
  api ??= await import('@opentelemetry/api');
  // A proxy: it delegates to whichever tracer provider is registered when a span starts.
  tracer ??= api.trace.getTracer('gatehouse');
  on = true;
}

export function disableTracing(): void {
  on = false;
}

/** The API and the tracer, loaded by enableTracing (only called once tracing is on). */
function loaded(): { api: typeof OpenTelemetry; tracer: OpenTelemetry.Tracer } {
  if (!api || !tracer) throw new Error('tracing is not enabled');
  return { api, tracer };
}

/** The kind of a thrown error (an OAuthError's reason, a SQLSTATE, a class name), never its message, which may quote input. */
function errorType(error: unknown): string {
  const e = error as { reason?: unknown; code?: unknown } | null;
  if (typeof e?.reason === 'string') return e.reason;
  if (typeof e?.code === 'string') return e.code;
  return error instanceof Error ? error.name : typeof error;
}

function failed(span: OpenTelemetry.Span, error: unknown): void {
  span.setAttribute('error.type', errorType(error));
  span.setStatus({ code: loaded().api.SpanStatusCode.ERROR });
}

/** Runs `work` in a child span of the active one. Call only when isTracing(). */
export async function inSpan<T>(
  name: string,
  attributes: OpenTelemetry.Attributes,
  work: () => Promise<T>,
): Promise<T> {
  const { api, tracer } = loaded();
  return tracer.startActiveSpan(name, { kind: api.SpanKind.INTERNAL, attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

const headerGetter = {
  keys: (carrier: FastifyRequest['headers']) => Object.keys(carrier),
  get: (carrier: FastifyRequest['headers'], key: string) => carrier[key],
};

/**
 * When tracing is on, wraps every route registered on `app` from now on (within its plugin) in a
 * server span named `METHOD /route`, whose parent is the request's `traceparent` (W3C Trace
 * Context, through the registered propagator). When off, adds nothing.
 */
export function traceRoutes(app: FastifyInstance): void {
  if (!on) return;
  const { api, tracer } = loaded();
  app.addHook('onRoute', (route) => {
    const handler = route.handler as (this: FastifyInstance, ...args: unknown[]) => unknown;
    const method = [route.method].flat().join(',');
    const name = `${method} ${route.url}`;
    const traced = function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const parent = api.propagation.extract(api.ROOT_CONTEXT, request.headers, headerGetter);
      const attributes = { 'http.request.method': request.method, 'http.route': route.url };
      return tracer.startActiveSpan(name, { kind: api.SpanKind.SERVER, attributes }, parent, async (span) => {
        try {
          const result = await handler.call(this, request, reply);
          span.setAttribute('http.response.status_code', reply.statusCode);
          return result;
        } catch (error) {
          failed(span, error);
          throw error;
        } finally {
          span.end();
        }
      });
    };
    route.handler = traced;
  });
}
