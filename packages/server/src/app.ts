import { RequestDrain } from './http/drain.js';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { adminDefinition } from './admin-api/definition.js';
import { adminRoutes } from './admin-api/routes.js';
import { API_PREFIX, resourceMetadataRoutes, resourceMetadataUrl } from './api/resource-metadata.js';
import { apiRoutes } from './api/routes.js';
import type { ApiDefinition } from './api/definition.js';
import {
  ACCOUNT_PAGES,
  DELETE_ACCOUNT_PATH,
  EMAIL_CHANGE_PATH,
  EMAIL_VERIFICATION_PATH,
  emailCodesOf,
  OWN_DATA_PATH,
  PASSWORD_RESET_PATH,
  SIGN_UP_PATH,
} from './accounts/index.js';
import { authorizationPages } from './authorize/routes.js';
import { federationPage } from './federation/routes.js';
import { upstreamDirectory } from './federation/directory.js';
import { SIGN_IN_FAILURES } from './authorize/sign-in/steps/index.js';
import type { ServerContext } from './context.js';
import { answerHalfClosedClients, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './http/connection-limits.js';
import { clientErrorHandler, connectRequestHandler, frameworkErrorHandler } from './http/client-errors.js';
import { healthRoutes } from './health/routes.js';
import { OAUTH_FORM_PATHS } from './oauth/endpoints/index.js';
import { metricsRoutes } from './http/metrics.js';
import { ReadinessCheck } from './health/readiness.js';
import { problemErrorHandler } from './http/problems.js';
import { OneLinePerRequest } from './http/request-log.js';
import { refuseUnsupportedRequests } from './http/unsupported-requests.js';
import { addSharedHooks } from './http/shared-hooks.js';
import { oauthRoutes } from './oauth/routes.js';
import type { DemoFlows } from './pages/demo-flows.js';
import { browserPages } from './pages/routes.js';
import { consoleDistDir, consolePage, readConsoleFiles, type ConsoleFiles } from './console/index.js';

export interface AppOptions {
  /** The server's logger (http/server-log.ts), the audit trail's too; none when undefined. */
  readonly logger?: FastifyBaseLogger;
  /** The REST API to serve under /v2; none when undefined. */
  readonly api?: ApiDefinition;
  /** Fastify's trustProxy: whose X-Forwarded-For gives the client address. */
  readonly trustProxy?: boolean | string;
  /** METRICS_TOKEN: when set, GET /metrics needs it as a Bearer token; otherwise only loopback callers get it. */
  readonly metricsToken?: string;
  readonly connectionLimits?: Partial<ConnectionLimits>;
  /** `serve --demo`: the authorization requests it printed; GET /demo/callback is served only with them. */
  readonly demo?: DemoFlows;
  /**
   * The admin console's build (console/): by default the one `npm run build` made
   * (packages/console/dist); `false` serves no console.
   */
  readonly console?: ConsoleFiles | false;
}

/** Where the REST API is served. */

/** Bodies of routes that set no limit of their own (the sign-in and consent forms). */
const DEFAULT_BODY_LIMIT = 16 * 1024;

/** Builds the HTTP application over a context; listening is the caller's business. */
export async function buildApp(context: ServerContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits };
  const drain = new RequestDrain();
  const app = Fastify({
    ...(options.logger === undefined ? {} : { loggerInstance: options.logger }),
    // One line per request, with the request and its answer (http/request-log.ts).
    logController: new OneLinePerRequest(),
    http: {
      headersTimeout: limits.headersTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      // Node checks the two timeouts above on this beat (30 s by default, which would stretch them).
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
      // Once the drain began, every answer closes its connection (http/drain.ts).
      ServerResponse: drain.ServerResponse,
    },
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    bodyLimit: DEFAULT_BODY_LIMIT,
    // A request that reaches a draining server on a connection already open is answered, its
    // connection then closed (http/drain.ts): not refused with Fastify's 503, a body outside the
    // catalog, to a client that sent a single-use refresh token before the stop.
    return503OnClosing: false,
    trustProxy: options.trustProxy ?? false,
    // Requests the parser or the router refuses are answered from the catalog too.
    clientErrorHandler: clientErrorHandler(context.issuer, OAUTH_FORM_PATHS),
    // The handler sends at once; the reply it returns is thenable, which Fastify does not await here.
    frameworkErrors: (error, request, reply) => {
      frameworkErrorHandler(error, request, reply);
    },
  });
  app.server.maxConnections = limits.maxConnections;
  app.decorate('drain', drain);
  answerHalfClosedClients(app.server);
  app.server.on('connect', connectRequestHandler(context.issuer));
  browserPages(app, {
    issuer: context.issuer,
    languages: context.languages,
    brand: context.brand,
    apiPrefix: options.api ? API_PREFIX : undefined,
    demo: options.demo,
  });
  // The admin console (console/): its page and assets, when built.
  const consoleFiles = consoleFilesFor(context.issuer, options.console);
  if (consoleFiles !== undefined) consolePage(app, consoleFiles);
  app.setErrorHandler(problemErrorHandler);
  const httpVersions = refuseUnsupportedRequests(app);
  const { metricsToken: token } = options;
  const requestMetrics = metricsRoutes(app, {
    token,
    rateLimits: context.rateLimits,
    signInFailures: SIGN_IN_FAILURES,
    auditEvents: context.audit,
    store: context.store,
    mail: { counts: () => context.mail.counts(), queue: () => context.store.mailQueue() },
  });
  // The count first: every request is counted, a refused one included.
  addSharedHooks(app, [drain.work, httpVersions, requestMetrics]);
  healthRoutes(
    app,
    new ReadinessCheck(context.store, context.keys, {
      onNotReady: (reason, cause) => app.log.warn({ err: cause }, `not ready: ${reason}`),
    }),
  );
  await app.register(oauthRoutes, { services: context });
  await app.register(authorizationPages, {
    context,
    upstreams: upstreamDirectory(context),
    accountLinks: {
      passwordReset: PASSWORD_RESET_PATH,
      emailVerification: EMAIL_VERIFICATION_PATH,
      emailChange: EMAIL_CHANGE_PATH,
      // "Create an account" only where anyone may: SIGN_UP=invite takes people through their invitation.
      signUp: context.accounts.signUp.mode === 'open' ? SIGN_UP_PATH : undefined,
      ownData: { download: OWN_DATA_PATH, remove: DELETE_ACCOUNT_PATH },
    },
    emailCodes: emailCodesOf({
      store: context.store,
      audit: context.audit,
      mail: context.mail,
      languages: context.languages,
      rateLimits: context.rateLimits,
      issuer: context.issuer,
    }),
    morePages: [federationPage(context.keys.encryption), ...ACCOUNT_PAGES],
  });
  if (options.api) {
    resourceMetadataRoutes(app, context.issuer, options.api);
    await app.register(apiRoutes, { prefix: API_PREFIX, context, api: options.api });
  }
  // The admin API's challenges name the REST API's resource metadata, as they always have (a
  // metadata document of its own would be a change of behaviour, left for its own step).
  const adminChallenge = { realm: 'gatehouse', resourceMetadata: resourceMetadataUrl(context.issuer) };
  await app.register(adminRoutes, {
    prefix: '/admin/v1',
    context,
    admin: adminDefinition(context.issuer),
    challenge: adminChallenge,
    collections: options.api?.declarations.map(({ name }) => name) ?? [],
  });
  return app;
}

/** The console to serve: the given build, else the built package's when there is one. */
function consoleFilesFor(issuer: string, given: ConsoleFiles | false | undefined): ConsoleFiles | undefined {
  if (given === false) return undefined;
  if (given !== undefined) return given;
  const dir = consoleDistDir();
  return dir === undefined ? undefined : readConsoleFiles(dir, issuer);
}
