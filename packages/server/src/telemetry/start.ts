import { disableTracing, enableTracing } from './tracing.js';

/** TRACING: `off` (the default), `otlp` (the SDK and its OTLP/HTTP exporter), or `api` (a provider registered by the operator). */
export type TracingMode = 'off' | 'otlp' | 'api';

export interface Tracing {
  /** Sends the spans still buffered and stops the exporter. */
  shutdown(): Promise<void>;
}

/** The optional packages TRACING=otlp loads (optional peer dependencies of @gatehouse/server). */
export const OTLP_PACKAGES = [
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
] as const;

type Importer = (specifier: string) => Promise<unknown>;

interface SdkModule {
  NodeTracerProvider: new (config: { spanProcessors: unknown[]; resource?: unknown }) => {
    register(): void;
    shutdown(): Promise<void>;
  };
  BatchSpanProcessor: new (exporter: unknown) => unknown;
}
interface ExporterModule {
  OTLPTraceExporter: new () => unknown;
}
interface Resource {
  merge(other: Resource): Resource;
}
interface ResourcesModule {
  defaultResource(): Resource;
  resourceFromAttributes(attributes: Record<string, string>): Resource;
  detectResources(config: { detectors: unknown[] }): Resource;
  envDetector: unknown;
}

/**
 * Turns tracing on as TRACING says, before the routes are registered. With `otlp` the OpenTelemetry
 * SDK for Node and its OTLP/HTTP (JSON) exporter are imported here, only here: they are optional
 * peer dependencies, not installed with Gatehouse, and their absence is an error naming them. The
 * exporter reads the standard variables (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS, …), the batch processor
 * OTEL_BSP_*; the provider registers the W3C trace-context propagator and the SDK's context
 * manager, which follows every promise of the process (a cost paid only with tracing on: the
 * server's own code follows no request through an async context). With `api`, spans go to whatever provider the operator registered (e.g. with
 * `node --import` of their own setup); none registered, the API's no-op.
 */
export async function startTracing(
  mode: TracingMode,
  importer: Importer = (specifier) => import(specifier),
): Promise<Tracing> {
  if (mode === 'off') return { shutdown: async () => {} };
  if (mode === 'api') {
    await enableTracing();
    return { shutdown: async () => disableTracing() };
  }
  let sdk: SdkModule;
  let exporter: ExporterModule;
  let resources: ResourcesModule;
  try {
    [sdk, exporter, resources] = (await Promise.all(OTLP_PACKAGES.map((name) => importer(name)))) as [
      SdkModule,
      ExporterModule,
      ResourcesModule,
    ];
  } catch (error) {
    throw new Error(
      `TRACING=otlp needs the optional packages ${OTLP_PACKAGES.join(' and ')}, which are not installed: ` +
        `npm install ${OTLP_PACKAGES.join(' ')} (or set TRACING=off) — ${(error as Error).message}`,
      { cause: error },
    );
  }
  // service.name is gatehouse unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise.
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': 'gatehouse' }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new sdk.NodeTracerProvider({
    resource,
    spanProcessors: [new sdk.BatchSpanProcessor(new exporter.OTLPTraceExporter())],
  });
  provider.register();
  await enableTracing();
  return {
    async shutdown() {
      disableTracing();
      await provider.shutdown();
    },
  };
}
