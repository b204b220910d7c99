/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, "CIMD"): a client whose
 * `client_id` is an https URL is described by the JSON document at that URL, fetched by the server
 * instead of registered in advance. The MCP authorization specification recommends it for agents.
 *
 * The resolved client is stored in `clients` like any other (grants, tokens, audit events, the
 * account page and the refresh-token rotation contract treat it the same), and the document is
 * cached in the store (0019) with its freshness, so every process sharing the store shares the cache
 * and a token request on another process finds the client without fetching. A stale document is
 * still used, within a limit, while a fresh one is fetched in the background (stale-while-revalidate):
 * sign-in never waits on the client's web server once the document was fetched.
 *
 * The fetch is outbound/safe-fetch.ts (SSRF-safe); refusals are catalog problems with pages, and a
 * document that was fetched (or tried) and refused is audited (`client_metadata_document_refused`,
 * with the URL's host and a short reason, never the body).
 */
import { OAuthError, ProblemError } from '@gatehouse/contract';
import { AUDIT_CLIENT_ID_MAX, truncated, type AuditTrail } from '../../audit/audit.js';
import { safeFetch, SafeFetchError, type Resolver } from '../../outbound/safe-fetch.js';
import type { Clock } from '../../primitives/clock.js';
import type { ClientRecord, JsonWebKeySet } from '../../primitives/records.js';
import type { ClientIdMetadataDocumentRecord } from '../../store/client-metadata-repository.js';
import type { Repository } from '../../store/repository.js';
import { checkClientMetadata } from '../clients/index.js';
import { AGENT_REFRESH_POLICY, DEFAULT_ACCESS_TOKEN_TTL } from '../clients/index.js';
import type { GrantTypeName } from '../../primitives/grant-types.js';
import { jwksProblem, jwksUriProblem } from '../keys/index.js';

/**
 * The device flow's grant type (RFC 8628 §3.4), from the vocabulary of grant types: the grant registry
 * (oauth/grants/) sits above the capabilities and is not imported by them.
 */
const DEVICE_CODE_GRANT: GrantTypeName = 'urn:ietf:params:oauth:grant-type:device_code';

export const CLIENT_ID_METADATA_MODES = ['off', 'allowlist', 'open'] as const;
export type ClientIdMetadataMode = (typeof CLIENT_ID_METADATA_MODES)[number];

/** CLIENT_ID_METADATA_* (docs/agents.md). */
export interface ClientIdMetadataPolicy {
  /** off: a URL client_id is an unknown client; allowlist: only `allowHosts`; open: any host not denied. */
  readonly mode: ClientIdMetadataMode;
  /** Host names, or `*.example.com` for its subdomains. */
  readonly allowHosts: readonly string[];
  /** Refused in every mode; wins over `allowHosts`. */
  readonly denyHosts: readonly string[];
  /** The shortest time a document is used without fetching it again, whatever its headers say. */
  readonly cacheFloorSeconds: number;
  /** The longest time a document is used without fetching it again, whatever its headers say. */
  readonly cacheCeilingSeconds: number;
  /** How long past its freshness a document is still used while it is fetched again. */
  readonly staleSeconds: number;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  /** Non-public address ranges the documents may be fetched from (CIDR); none by default. */
  readonly allowAddresses: readonly string[];
  /** Trusted CAs (PEM) instead of Node's, e.g. a test's own. */
  readonly ca?: string | readonly string[];
  readonly resolve?: Resolver;
}

export const DEFAULT_CLIENT_ID_METADATA_POLICY: ClientIdMetadataPolicy = {
  mode: 'off',
  allowHosts: [],
  denyHosts: [],
  cacheFloorSeconds: 5 * 60,
  cacheCeilingSeconds: 24 * 60 * 60,
  staleSeconds: 24 * 60 * 60,
  maxBytes: 16 * 1024,
  timeoutMs: 5000,
  allowAddresses: [],
};

/** Whether `clientId` names a metadata document rather than a registered client (registered ids hold no ':'). */
export function isClientIdMetadataUrl(clientId: string): boolean {
  return clientId.startsWith('https://');
}

/**
 * draft-ietf-oauth-client-id-metadata-document §3: https, a path component, no fragment, no
 * credentials, no dot segments. Compared as a string (§4.1), so it must also be the URL's own
 * serialisation: `https://Example.com:443/a/../c` is refused rather than fetched as another string.
 */
function checkedDocumentUrl(clientId: string): URL {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw notAllowed('the client_id is not a URL');
  }
  if (url.protocol !== 'https:') throw notAllowed('the client_id URL must use https (CIMD §3)');
  if (url.href !== clientId) throw notAllowed('the client_id URL is not in its normal form (CIMD §3)');
  if (url.pathname === '/' || url.pathname === '') throw notAllowed('the client_id URL must have a path (CIMD §3)');
  if (url.hash !== '' || url.username !== '' || url.password !== '')
    throw notAllowed('the client_id URL must have no fragment and no credentials (CIMD §3)');
  return url;
}

function notAllowed(detail: string): ProblemError {
  return new ProblemError('client_metadata_document_not_allowed', detail);
}

function hostMatches(host: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => (p.startsWith('*.') ? host.endsWith(p.slice(1)) : host === p.toLowerCase()));
}

/** The operator's host rules (CLIENT_ID_METADATA_DOCUMENTS, _ALLOW_HOSTS, _DENY_HOSTS). */
function checkHostAllowed(url: URL, policy: ClientIdMetadataPolicy): void {
  const host = url.hostname;
  if (hostMatches(host, policy.denyHosts)) throw notAllowed(`the host ${host} is denied by the operator`);
  if (policy.mode === 'allowlist' && !hostMatches(host, policy.allowHosts))
    throw notAllowed(`the host ${host} is not on the operator's allow list`);
}

const FETCH_FAILURES: Readonly<Record<SafeFetchError['reason'], string>> = {
  invalid_url: 'the URL cannot be fetched',
  scheme_not_allowed: 'the URL must use https',
  resolution_failed: 'its host name does not resolve',
  address_not_allowed: 'its host resolves to a private, loopback, link-local or otherwise non-public address',
  redirect_not_followed: 'it answered with a redirect, which is never followed',
  too_large: 'it is larger than the size limit',
  timeout: 'it did not arrive within the time limit',
  connection_failed: 'the connection failed (or its TLS certificate was not trusted)',
};

/** How long a fetched document stays fresh: its HTTP caching headers, clamped to the floor and ceiling. */
export function freshnessSeconds(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  policy: Pick<ClientIdMetadataPolicy, 'cacheFloorSeconds' | 'cacheCeilingSeconds'>,
): number {
  const cacheControl = String(headers['cache-control'] ?? '').toLowerCase();
  let seconds: number | undefined;
  // RFC 9111 §5.2.2: no-store and no-cache forbid reuse without validation; the floor still applies.
  if (/(^|,)\s*(no-store|no-cache)\b/.test(cacheControl)) seconds = 0;
  const maxAge = /(^|,)\s*max-age\s*=\s*"?(\d{1,10})"?/.exec(cacheControl);
  if (seconds === undefined && maxAge) seconds = Number(maxAge[2]);
  if (seconds === undefined && typeof headers['expires'] === 'string') {
    const expires = Date.parse(headers['expires']);
    const date = typeof headers['date'] === 'string' ? Date.parse(headers['date']) : Date.now();
    if (Number.isFinite(expires) && Number.isFinite(date)) seconds = Math.floor((expires - date) / 1000);
  }
  return Math.min(policy.cacheCeilingSeconds, Math.max(policy.cacheFloorSeconds, seconds ?? 0));
}

/**
 * The client a document describes (CIMD §4.1): its `client_id` is exactly the URL; no shared secret
 * (§4.1: client_secret_* methods and `client_secret` are refused); `private_key_jwt` with its `jwks`
 * or `jwks_uri`; redirect URIs, scope and grant types checked as for a registered client (RFC 7591 §2,
 * oauth/clients/client-metadata.ts). Grant types default to authorization_code and refresh_token: an agent
 * gets a refresh token unless its document says otherwise (docs/agents.md).
 */
export function clientFromDocument(
  url: string,
  document: unknown,
  offeredScopes: readonly string[],
  now: number,
): ClientRecord {
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw invalid('not_an_object', 'the document is not a JSON object');
  const fields = document as Record<string, unknown>;
  if (fields['client_id'] !== url)
    throw invalid('client_id_mismatch', 'its client_id is not exactly the URL it was fetched from (CIMD §4.1)');
  if ('client_secret' in fields || 'client_secret_expires_at' in fields)
    throw invalid(
      'shared_secret',
      'it carries a client_secret; a metadata document never holds a shared secret (CIMD §4.1)',
    );
  const method = fields['token_endpoint_auth_method'] ?? 'none';
  if (method !== 'none' && method !== 'private_key_jwt')
    throw invalid('auth_method_not_allowed', 'token_endpoint_auth_method must be none or private_key_jwt (CIMD §4.1)');
  const keys = fields['jwks'] !== undefined || fields['jwks_uri'] !== undefined;
  if (method === 'private_key_jwt' && !keys) throw invalid('keys_invalid', 'private_key_jwt needs jwks or jwks_uri');
  // RFC 7591 §2: the keys by value or by reference, not both, checked as a registered client's are.
  if (fields['jwks'] !== undefined && fields['jwks_uri'] !== undefined)
    throw invalid('keys_invalid', 'it has both jwks and jwks_uri');
  const keyProblem =
    fields['jwks'] !== undefined
      ? jwksProblem(fields['jwks'])
      : fields['jwks_uri'] !== undefined
        ? jwksUriProblem(fields['jwks_uri'])
        : undefined;
  if (method === 'private_key_jwt' && keyProblem !== undefined) throw invalid('keys_invalid', keyProblem);
  const grantTypes = fields['grant_types'] ?? ['authorization_code', 'refresh_token'];
  let metadata;
  try {
    // `profile` (a registration extension) is not taken from a document: ignored as unknown (RFC 7591 §2).
    metadata = checkClientMetadata(
      { ...fields, grant_types: grantTypes, token_endpoint_auth_method: method, profile: undefined },
      offeredScopes,
    );
  } catch (error) {
    if (error instanceof OAuthError) throw invalid('metadata_invalid', error.description);
    throw error;
  }
  // The flows a client of a document starts: the code flow (/authorize) or the device flow (RFC 8628).
  if (!metadata.grant_types.some((g) => g === 'authorization_code' || g === DEVICE_CODE_GRANT))
    throw invalid('metadata_invalid', `grant_types must include authorization_code or ${DEVICE_CODE_GRANT}`);
  return {
    id: url,
    name: metadata.client_name ?? new URL(url).hostname,
    // A private_key_jwt client authenticates with its keys (RFC 7523 §2.2), never a secret.
    secretDigest: null,
    ...(method === 'private_key_jwt'
      ? {
          authMethod: 'private_key_jwt' as const,
          ...(fields['jwks'] !== undefined
            ? { jwks: fields['jwks'] as JsonWebKeySet }
            : { jwksUri: fields['jwks_uri'] as string }),
        }
      : {}),
    redirectUris: metadata.redirect_uris,
    grantTypes: metadata.grant_types as ClientRecord['grantTypes'],
    scope: metadata.scope.split(' '),
    policy: AGENT_REFRESH_POLICY,
    accessTokenTtl: DEFAULT_ACCESS_TOKEN_TTL,
    resourceServer: false,
    createdAt: now,
    idTokenAlg: 'RS256',
    postLogoutRedirectUris: [],
  };
}

/**
 * A document refused, with the short reason the audit trail records (`client_metadata_document_refused`):
 * a safe-fetch reason, `unexpected_status`, `not_json`, or why the document cannot describe a client.
 */
export class DocumentRefusal extends ProblemError {
  readonly refusal: string;
  constructor(
    code: 'client_metadata_document_invalid' | 'client_metadata_document_unavailable',
    refusal: string,
    detail: string,
  ) {
    super(code, detail);
    this.refusal = refusal;
  }
}

function invalid(refusal: string, detail: string): DocumentRefusal {
  return new DocumentRefusal(
    'client_metadata_document_invalid',
    refusal,
    `The client ID metadata document is not valid: ${detail}.`,
  );
}

/** A resolved client and the document it came from (its `jwks` / `jwks_uri` for private_key_jwt). */
export interface MetadataDocumentClient {
  readonly client: ClientRecord;
  readonly document: Readonly<Record<string, unknown>>;
}

interface Dependencies {
  readonly store: Repository;
  readonly clock: Clock;
  /** Where refused documents are recorded. */
  readonly audit: AuditTrail;
  /** The scopes a client may ask for (as for dynamic registration). */
  readonly offeredScopes: readonly string[];
}

/** Resolves URL client_ids through their documents, cached in the store. One per server context. */
export class ClientIdMetadataDocuments {
  readonly policy: ClientIdMetadataPolicy;
  readonly #deps: Dependencies;
  /** Fetches under way in this process, by URL: concurrent sign-ins of one agent fetch once. */
  readonly #inFlight = new Map<string, Promise<MetadataDocumentClient>>();

  constructor(policy: ClientIdMetadataPolicy, deps: Dependencies) {
    this.policy = policy;
    this.#deps = deps;
  }

  /** `client_id_metadata_document_supported` (CIMD §5). */
  get supported(): boolean {
    return this.policy.mode !== 'off';
  }

  /** Whether this resolver answers for `clientId` (rather than the clients table alone). */
  handles(clientId: string): boolean {
    return this.supported && isClientIdMetadataUrl(clientId);
  }

  /**
   * The client a request names by `clientId`: through its document when this resolver handles the
   * URL (`resolve`), else from the clients table; undefined for an unknown client. `address`: the
   * requester's, audited with a refused document.
   */
  async clientNamed(clientId: string, address: string): Promise<ClientRecord | undefined> {
    if (this.handles(clientId)) return (await this.resolve(clientId, address)).client;
    return this.#deps.store.findClient(clientId);
  }

  /**
   * The client `clientId` names: from the cache while fresh, from the cache while stale within
   * `staleSeconds` (fetching it again in the background), else fetched now. Throws a catalog problem.
   * `address` is the requester's, required so that every refusal a request causes is audited with
   * it; only the background refresh, which no request waits on, records none.
   */
  async resolve(clientId: string, address: string): Promise<MetadataDocumentClient> {
    checkHostAllowed(checkedDocumentUrl(clientId), this.policy);
    const now = this.#deps.clock.now();
    const cached = await this.#deps.store.findClientIdMetadataDocument(clientId);
    if (cached !== undefined && now < cached.usableUntil) {
      const client = await this.#deps.store.findClient(clientId);
      if (client !== undefined) {
        if (now >= cached.freshUntil) this.#refreshInBackground(clientId);
        return { client, document: cached.document };
      }
    }
    return this.#fetchOnce(clientId, address);
  }

  /** Resolves when no fetch is under way in this process (tests wait on background refreshes). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight.values()]);
  }

  #refreshInBackground(clientId: string): void {
    // A failed refresh keeps the stale document until it is no longer usable; the next sign-in tries again.
    this.#fetchOnce(clientId, null).catch(() => undefined);
  }

  #fetchOnce(clientId: string, address: string | null): Promise<MetadataDocumentClient> {
    let fetching = this.#inFlight.get(clientId);
    if (fetching === undefined) {
      fetching = this.#fetchAndStore(clientId)
        .catch((error: unknown) => this.#audited(error, clientId, address))
        .finally(() => this.#inFlight.delete(clientId));
      this.#inFlight.set(clientId, fetching);
    }
    return fetching;
  }

  /**
   * Records a refused document, once per fetch however many sign-ins waited on it, and throws the
   * refusal on: the URL's host and the reason, never the body. `address`: the caller that made the
   * fetch happen, none for a background refresh.
   */
  async #audited(error: unknown, clientId: string, address: string | null): Promise<never> {
    if (error instanceof DocumentRefusal)
      await this.#deps.audit.record({
        event: 'client_metadata_document_refused',
        at: this.#deps.clock.now(),
        clientId: truncated(clientId, AUDIT_CLIENT_ID_MAX),
        reason: `${error.refusal} (${new URL(clientId).host})`,
        address,
      });
    throw error;
  }

  async #fetchAndStore(clientId: string): Promise<MetadataDocumentClient> {
    const { store, clock, offeredScopes } = this.#deps;
    const { document, freshFor } = await this.#fetchDocument(clientId);
    const now = clock.now();
    const client = clientFromDocument(clientId, document, offeredScopes, now);
    const record: ClientIdMetadataDocumentRecord = {
      clientId,
      document: document as Record<string, unknown>,
      fetchedAt: now,
      freshUntil: now + freshFor,
      usableUntil: now + freshFor + this.policy.staleSeconds,
    };
    await store.saveClientIdMetadataDocument(client, record);
    return { client: (await store.findClient(clientId)) ?? client, document: record.document };
  }

  async #fetchDocument(clientId: string): Promise<{ document: unknown; freshFor: number }> {
    const p = this.policy;
    let response;
    try {
      response = await safeFetch(clientId, {
        maxBytes: p.maxBytes,
        timeoutMs: p.timeoutMs,
        allowAddresses: p.allowAddresses,
        ca: p.ca,
        resolve: p.resolve,
      });
    } catch (error) {
      if (!(error instanceof SafeFetchError)) throw error;
      throw unavailable(error.reason, FETCH_FAILURES[error.reason]);
    }
    if (response.status !== 200)
      throw unavailable('unexpected_status', `it answered with status ${response.status}, not 200`);
    let document: unknown;
    try {
      document = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw invalid('not_json', 'it is not JSON');
    }
    return { document, freshFor: freshnessSeconds(response.headers, p) };
  }
}

function unavailable(refusal: string, why: string): DocumentRefusal {
  return new DocumentRefusal(
    'client_metadata_document_unavailable',
    refusal,
    `The client ID metadata document could not be fetched: ${why}.`,
  );
}
