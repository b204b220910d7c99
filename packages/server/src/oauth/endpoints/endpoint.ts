import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RatePolicy } from '../../store/rate-limits.js';
import type { FormParams } from '../../http/form.js';
import type { ClientRecord } from '../../primitives/records.js';
import type { OAuthServices } from '../services.js';

/**
 * How clients authenticate at an endpoint (RFC 6749 §2.3, RFC 8414 §2 `*_auth_methods_supported`):
 * - `confidential`: a client secret, by `client_secret_basic` or `client_secret_post`;
 * - `public_allowed`: those, or `none` for a public client (RFC 6749 §2.1) naming itself by `client_id`;
 * - `none`: nobody authenticates (metadata, keys, the browser-facing authorization endpoint).
 */
export type ClientAuthentication = 'confidential' | 'public_allowed' | 'none';

/**
 * The default limits of a client-authenticating endpoint, one bucket per authenticated client and
 * one per client address, named `<endpoint>_client` and `<endpoint>_address` (RATE_LIMIT_<NAME>).
 */
export interface EndpointRateLimits {
  readonly client: RatePolicy;
  readonly address: RatePolicy;
}

/** The limit of an endpoint where no client authenticates: one bucket per client address, `<endpoint>_address`. */
export interface AddressRateLimit {
  readonly address: RatePolicy;
}

/** What an endpoint may declare as its limits, by how its clients authenticate. */
export type RateLimitsOf<Auth extends ClientAuthentication> = Auth extends 'none'
  ? AddressRateLimit | null
  : EndpointRateLimits;

export type EndpointMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One request to an endpoint, as its handler sees it once the shared steps have run. */
export interface EndpointCall<Auth extends ClientAuthentication, Checked = unknown> {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** The form body (POST) or an empty set (GET). */
  readonly params: FormParams;
  /** The authenticated client, within its limits; null where nobody authenticates. */
  readonly client: Auth extends 'none' ? null : ClientRecord;
  /** What the endpoint's `precheck` resolved (e.g. /token's grant handler), so nothing is resolved twice. */
  readonly checked: Checked;
}

/**
 * One entry of the OAuth surface. Route registration, the RFC 8414 metadata, the set of paths whose
 * parse errors are RFC 6749 §5.2 bodies and the rate-limit names are all derived from these entries
 * (`endpoints/index.ts`); nothing else names an OAuth path.
 */
export interface OAuthEndpoint<
  Name extends string = string,
  Auth extends ClientAuthentication = ClientAuthentication,
  Checked = unknown,
> {
  /** Also the stem of its rate-limit names. */
  readonly name: Name;
  /** One method, or several on one URL (RFC 7592's GET, PUT and DELETE of a registered client). */
  readonly method: EndpointMethod | readonly EndpointMethod[];
  /**
   * The caller presents an access token (RFC 6750) rather than client credentials: served on GET
   * and POST alike (OIDC Core §5.3.1), with `params` the form body on POST. Its handler answers its
   * own errors, as WWW-Authenticate challenges (RFC 6750 §3).
   */
  readonly bearer?: true;
  readonly path: `/${string}`;
  /**
   * The request body is `application/json` (RFC 7591 §3.1), read as `request.body`, rather than a
   * form; `params` is then empty.
   */
  readonly body?: 'json';
  /** Whether this server serves the endpoint (route and metadata); always when absent. */
  readonly servedWhen?: (services: OAuthServices) => boolean;
  /** The RFC 8414 metadata member that names this endpoint's URL; null for none. */
  readonly metadataKey: string | null;
  readonly clientAuthentication: Auth;
  /**
   * A flow starts here without a browser: a URL client_id is resolved through its client ID metadata
   * document (oauth/client-id-metadata/client-id-metadata.ts) before authentication, as /authorize does.
   */
  readonly resolvesClientIdMetadataDocuments?: true;
  /** Required for every client-authenticating endpoint; per address only, or none, for the others. */
  readonly rateLimits: RateLimitsOf<Auth>;
  /**
   * Checks whose errors come before client authentication's (e.g. /token's `grant_type`, RFC 6749
   * §5.2 lists unsupported_grant_type independently of the client). What it returns reaches the
   * handler as `call.checked`.
   */
  readonly precheck?: (params: FormParams) => Checked;
  /**
   * Answers the request. Absent when another part of the server serves this path (the authorization
   * endpoint is served with the sign-in pages, which answer in HTML and redirects).
   */
  handle?(call: EndpointCall<Auth, Checked>, services: OAuthServices): Promise<FastifyReply>;
  /**
   * Answers the request synchronously, after a client authentication that answered synchronously
   * too (SQLite: its reads and limits in the process): the reply sent, or null, having changed
   * nothing, where a step must be awaited; `handle` then answers. Saves the awaits of a request
   * that needs none; the answer is `handle`'s.
   */
  handleAtOnce?(call: EndpointCall<Auth, Checked>, services: OAuthServices): FastifyReply | null;
}

/**
 * Declares an endpoint, keeping its name, method and limits as literal types so the rate-limit names
 * are typed.
 */
export function oauthEndpoint<
  const Name extends string,
  const Auth extends ClientAuthentication,
  const Method extends EndpointMethod | readonly EndpointMethod[],
  const Limits extends RateLimitsOf<Auth>,
  Checked = undefined,
>(
  endpoint: OAuthEndpoint<Name, Auth, Checked> & { readonly method: Method; readonly rateLimits: Limits },
): OAuthEndpoint<Name, Auth, Checked> & { readonly method: Method; readonly rateLimits: Limits } {
  return endpoint;
}
