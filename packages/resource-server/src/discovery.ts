/** The parts of the authorization server's metadata (RFC 8414 §2) the kit uses. */
export interface ServerMetadata {
  readonly issuer: string;
  readonly jwks_uri: string;
  readonly introspection_endpoint?: string;
}

/** Raised when the authorization server cannot be reached or answers nonsense; the kit answers 503. */
export class AuthorizationServerUnavailable extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'AuthorizationServerUnavailable';
  }
}

/**
 * Reads `/.well-known/oauth-authorization-server` of `issuer`. The `issuer` it names must be the
 * one asked for, or its keys could be another server's (RFC 8414 §3.3).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3 RFC 8414 §3
 */
export async function discoverMetadata(issuer: string, fetchImpl: typeof fetch): Promise<ServerMetadata> {
  const url = `${issuer}/.well-known/oauth-authorization-server`;
  let metadata: Partial<ServerMetadata>;
  try {
    const response = await fetchImpl(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(5000),
    });
    if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
    metadata = (await response.json()) as Partial<ServerMetadata>;
  } catch (error) {
    throw new AuthorizationServerUnavailable(`cannot read ${url}: ${(error as Error).message}`, { cause: error });
  }
  if (metadata.issuer !== issuer)
    throw new AuthorizationServerUnavailable(
      `${url} names the issuer ${JSON.stringify(metadata.issuer)}, not ${issuer}`,
    );
  if (typeof metadata.jwks_uri !== 'string') throw new AuthorizationServerUnavailable(`${url} has no jwks_uri`);
  return metadata as ServerMetadata;
}

/** A value loaded once: `memo()` loads it (or waits for it); `memo.peek()` only looks. */
export interface Memo<T> {
  (): T | Promise<T>;
  /** The value if loaded, else undefined; starts nothing. */
  readonly peek: () => T | undefined;
}

/**
 * `load()` once; a failure is not remembered, so the next request tries again. Once loaded, the
 * value itself is returned (no promise, so a request that needs nothing else does not wait a tick).
 */
export function memoize<T>(load: () => Promise<T>): Memo<T> {
  let pending: Promise<T> | undefined;
  let loaded: { readonly value: T } | undefined;
  const memo = () => {
    if (loaded !== undefined) return loaded.value;
    pending ??= load().then(
      (value) => {
        loaded = { value };
        return value;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  return Object.assign(memo, { peek: () => loaded?.value });
}
