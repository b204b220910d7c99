import {
  accessTokenVerifier as contractVerifier,
  InvalidAccessToken,
  ProblemError,
  type OpenApiDocument,
  type RequestReader,
} from '@gatehouse/contract';
import { accessTokenVerifier, type AccessTokenClaims } from './access-tokens.js';
import { checkedBody } from './body.js';
import { dpopClock, dpopStep, newerNonce, type DpopOptions } from './dpop.js';
import { DpopNonces } from './dpop-nonces.js';
import { AuthorizationServerUnavailable, discoverMetadata, memoize } from './discovery.js';
import { grantCheck, type GrantCheck, type IntrospectionOptions } from './introspection.js';
import { loadDocument, operationFinder, type Operation, type OperationFinder } from './operations.js';
import { problemResponse, type ProblemResponse } from './problems.js';
import { requirementRefusal, type Requirement } from './requirements.js';

export interface ResourceServerOptions {
  /** The Gatehouse issuer, e.g. `https://auth.example.com`; its metadata names the keys. */
  readonly issuer: string;
  /** The API's OpenAPI 3.0 or 3.1 document: a YAML or JSON file, or the parsed document. */
  readonly openapi: string | object;
  /** The `aud` tokens must carry; Gatehouse signs its own issuer as the audience (the default). */
  readonly audience?: string;
  /** Seconds of clock difference tolerated on `exp` and `nbf` (default 30). */
  readonly clockToleranceSeconds?: number;
  /** No key-set request sooner than this after the last one (default 30 000 ms). */
  readonly jwksCooldownMs?: number;
  /** Confirm every grant is still live by introspection (RFC 7662); see IntrospectionOptions.cacheMs. */
  readonly introspection?: IntrospectionOptions;
  /** Where problem `type`s point (default `<issuer>/problems`, the server's problem pages). */
  readonly problemBaseUrl?: string;
  /** A prefix the API is mounted under, prepended to every path of the document. */
  readonly basePath?: string;
  /** The `realm` of WWW-Authenticate challenges (default `api`). */
  readonly realm?: string;
  readonly fetch?: typeof fetch;
  /**
   * Told of what the caller only sees as 503 service_unavailable or 500 internal_error (the
   * authorization server unreachable, a fault in the kit); console.error by default.
   */
  readonly onError?: (error: unknown) => void;
  /**
   * `Authorization: DPoP` (RFC 9449 §7) with its proof is accepted, and a DPoP-bound token sent as
   * Bearer refused (§7.2); `false` accepts bearer tokens only. A proof's replay is checked in this
   * process's memory unless `replay` is given; `nonce` requires server-provided nonces (§9).
   */
  readonly dpop?: DpopOptions | false;
  /**
   * The API's origin as clients address it (e.g. `https://api.example.com`), when a proxy in front
   * rewrites it: the adapters build the request URL a DPoP proof's `htu` names from it (RFC 9449 §4.3).
   */
  readonly publicOrigin?: string;
}

/** A request as the kit needs it; `body` is the raw body (undefined or empty when none). */
export interface ApiRequest {
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly body: string | Uint8Array | undefined;
  /** Every header, lower-case names, as the framework gives them (the adapters pass theirs). */
  readonly headers?: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The absolute URL as the client addressed it, which a DPoP proof's `htu` names (RFC 9449 §4.3). */
  readonly url?: string;
}

/** How the contract's access-token verifier reads an ApiRequest. */
const API_REQUEST: RequestReader<ApiRequest> = {
  method: (request) => request.method,
  header(request, name) {
    if (name === 'authorization') return request.authorization;
    if (name === 'content-type') return request.contentType;
    const value = request.headers?.[name];
    return typeof value === 'string' ? value : undefined;
  },
  absoluteUrl(request) {
    if (request.url === undefined) throw new Error('the request was given to the kit without its absolute URL');
    return request.url;
  },
};

export type Verdict =
  | {
      readonly ok: true;
      /** undefined when the document declares no such operation: the kit lets the request through untouched. */
      readonly operation: Operation | undefined;
      readonly token: AccessTokenClaims | undefined;
      /** The parsed JSON body, exactly as sent (or the raw body when the operation takes no JSON). */
      readonly body: unknown;
      /** Headers for the route's response: a new `DPoP-Nonce` (RFC 9449 §8.2), when nonces are required. */
      readonly headers?: Readonly<Record<string, string>>;
    }
  | { readonly ok: false; readonly response: ProblemResponse };

export interface ResourceServer {
  readonly document: OpenApiDocument;
  /** Authenticates and validates one request; never throws, answers a catalog problem instead. */
  check(request: ApiRequest): Promise<Verdict>;
  /**
   * `check` without the promise when nothing has to wait (the key set loaded, the token verified
   * before, no introspection or a cached answer): the usual request of a busy API. For adapters on
   * a hot path; a promise otherwise. Never throws either.
   */
  checkNow(request: ApiRequest): Verdict | Promise<Verdict>;
  /** The response for a catalog problem met outside `check` (an adapter's body limit, say). */
  problem(error: ProblemError, instance: string): ProblemResponse;
  /**
   * The problem answered when `token` lacks the route's `requirement` (`requireRole`,
   * `requireScope`), or undefined when it holds one of its roles or scopes.
   */
  refusal(
    token: AccessTokenClaims | undefined,
    requirement: Requirement,
    instance: string,
  ): ProblemResponse | undefined;
  /** Whether an admitting verdict may carry `headers` (DPoP nonces required): adapters skip the look otherwise. */
  readonly admitsWithHeaders: boolean;
}

/** The framework-free core: the Express middleware and the Fastify plugin both call `check`. */
export function createResourceServer(options: ResourceServerOptions): ResourceServer {
  const issuer = options.issuer.replace(/\/+$/, '');
  const document = loadDocument(options.openapi);
  const findOperation: OperationFinder = operationFinder(document, options.basePath);
  const fetchImpl = options.fetch ?? fetch;
  const problemBase = (options.problemBaseUrl ?? `${issuer}/problems`).replace(/\/+$/, '');
  const metadata = memoize(() => discoverMetadata(issuer, fetchImpl));
  const verifier = memoize(async () =>
    accessTokenVerifier({
      issuer,
      audience: options.audience ?? issuer,
      jwksUri: (await metadata()).jwks_uri,
      clockToleranceSeconds: options.clockToleranceSeconds ?? 30,
      jwksCooldownMs: options.jwksCooldownMs ?? 30_000,
      fetch: fetchImpl,
    }),
  );
  const dpopOptions = options.dpop === false ? undefined : (options.dpop ?? {});
  const nonceOptions = dpopOptions?.nonce;
  const nonces = nonceOptions === undefined ? undefined : new DpopNonces(nonceOptions === true ? {} : nonceOptions);
  const isLive: GrantCheck | undefined =
    options.introspection &&
    grantCheck(async () => introspectionEndpoint(await metadata()), options.introspection, fetchImpl);

  /**
   * The contract's access-token verifier, with the kit's steps: the signature against the server's
   * JWKS (a token verified before is known at once), and introspection when configured.
   */
  const bearer = contractVerifier({
    challenge: { realm: options.realm ?? 'api' },
    request: API_REQUEST,
    known: (token) => verifier.peek()?.known(token),
    dpop: dpopOptions === undefined ? undefined : dpopStep(dpopOptions, nonces),
    verify(token) {
      const verify = verifier();
      return isPromise(verify) ? verify.then((v) => v(token)) : verify(token);
    },
    liveness:
      isLive === undefined
        ? undefined
        : {
            read: (token: string, claims: AccessTokenClaims) => isLive(token, claims.exp),
            judge(active: boolean) {
              if (!active)
                throw new InvalidAccessToken(
                  'The grant of this access token has been revoked, or the token is no longer active.',
                );
            },
          },
  });

  /**
   * The token's claims (undefined when the operation allows anonymous calls), at once when nothing
   * has to wait: the key set loaded, the token verified before, and no introspection or a cached
   * answer. Throws (or rejects with) the catalog problem.
   */
  function authenticate(
    operation: Operation,
    request: ApiRequest,
  ): AccessTokenClaims | undefined | Promise<AccessTokenClaims | undefined> {
    if (operation.security.length === 0 || operation.security.some((scopes) => scopes.length === 0)) return undefined;
    return bearer(request, operation.security);
  }

  function checkNow(request: ApiRequest): Verdict | Promise<Verdict> {
    const operation = findOperation(request.method, request.path);
    if (operation === undefined) return { ok: true, operation, token: undefined, body: request.body };
    let token: ReturnType<typeof authenticate>;
    try {
      token = authenticate(operation, request);
    } catch (error) {
      return refused(error, request.path);
    }
    return isPromise(token)
      ? token.then(
          (t) => admit(operation, t, request),
          (error: unknown) => refused(error, request.path),
        )
      : admit(operation, token, request);
  }

  function admitted(operation: Operation, token: AccessTokenClaims | undefined, request: ApiRequest): Verdict {
    try {
      const checked = checkedBody(operation, request.method.toUpperCase(), request.contentType, request.body);
      return checked.ok ? { ok: true, operation, token, body: checked.body } : refused(checked.problem, request.path);
    } catch (error) {
      return refused(error, request.path);
    }
  }

  /**
   * With nonces required, a request admitted with a DPoP-bound token whose proof carries last
   * slot's nonce is answered with the current one (RFC 9449 §8.2: the client uses it from then on),
   * so that a client calling at least once a slot meets `use_dpop_nonce` only once. Not sent when the proof has the
   * current nonce: the client already uses it. Without nonces, `admitted` is used as it is.
   */
  function admittedWithNonce(operation: Operation, token: AccessTokenClaims | undefined, request: ApiRequest): Verdict {
    const verdict = admitted(operation, token, request);
    if (!verdict.ok || token?.cnf?.jkt === undefined || nonces === undefined) return verdict;
    const nonce = newerNonce(API_REQUEST.header(request, 'dpop'), nonces, now());
    return nonce === undefined ? verdict : { ...verdict, headers: { 'dpop-nonce': nonce } };
  }

  const now = dpopClock(dpopOptions ?? {});
  const admit = nonces === undefined ? admitted : admittedWithNonce;

  function refused(error: unknown, path: string): Verdict {
    const problem = asProblem(error);
    if (problem.status >= 500) (options.onError ?? logError)(error);
    return { ok: false, response: problemResponse(problem, path, problemBase) };
  }

  return {
    document,
    problem: (error, instance) => problemResponse(error, instance, problemBase),
    refusal(token, requirement, instance) {
      const refused = requirementRefusal(token, requirement, options.realm ?? 'api');
      return refused && problemResponse(refused, instance, problemBase);
    },
    check: async (request) => checkNow(request),
    checkNow,
    admitsWithHeaders: nonces !== undefined,
  };
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return value instanceof Promise;
}

function logError(error: unknown): void {
  console.error('@gatehouse/resource-server:', error);
}

function introspectionEndpoint(metadata: { introspection_endpoint?: string }): string {
  if (typeof metadata.introspection_endpoint !== 'string')
    throw new AuthorizationServerUnavailable('the authorization server publishes no introspection_endpoint');
  return metadata.introspection_endpoint;
}

/** Only catalog problems leave the kit; an unexpected fault becomes internal_error. */
function asProblem(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error instanceof AuthorizationServerUnavailable)
    return new ProblemError('service_unavailable', 'The authorization server cannot be reached; try again shortly.');
  return new ProblemError('internal_error');
}
